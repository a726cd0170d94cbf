// MainWindow: View → Language, and rebuilding the window's widgets in the new language. The
// widgets take their texts once, when built; rather than teach each one to retranslate itself,
// the window tears its panels, actions and menus down and builds them again. What lives outside
// them stays: the results document (runs, selection, file), the sweep and prediction
// controllers and the file controller. What the widgets held goes through the settings
// (parameters, checked strategies, geometry and dock layout) or is carried here (chart tab,
// curve sweep fields).

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

#include "base/language.h"
#include "base/messages.h"
#include "controllers/file_controller.h"
#include "controllers/prediction_controller.h"
#include "controllers/sweep_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

namespace ckptlab::ui {

namespace {

// The menu shows the language in use again after a refused or failed switch.
void checkCurrentLanguage(const QObject& window) {
    if (auto* current = window.findChild<QAction*>(QStringLiteral("language_") + currentLanguage()))
        current->setChecked(true);
}

}  // namespace

void MainWindow::createLanguageMenu(QMenu* view) {
    // Each language in its own name, so the way back is readable whatever is installed.
    QMenu* menu = view->addMenu(tr("&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    for (const QString& code : availableLanguages()) {
        QAction* action = menu->addAction(languageName(code));
        action->setObjectName(QStringLiteral("language_") + code);
        action->setCheckable(true);
        action->setChecked(code == currentLanguage());
        group->addAction(action);
        // Queued: the rebuild deletes this very menu. The switch holds the document from the
        // click on, so nothing started meanwhile lands in the middle of the rebuild.
        connect(action, &QAction::triggered, this, [this, code] {
            if (!m_busy->begin(DocumentAction::LanguageSwitch, this)) {
                checkCurrentLanguage(*this);
                return;
            }
            QMetaObject::invokeMethod(
                this,
                [this, code] {
                    applyLanguage(code);
                    m_busy->end(DocumentAction::LanguageSwitch);
                },
                Qt::QueuedConnection);
        });
    }
}

bool MainWindow::setLanguage(const QString& code) {
    DocumentHold hold(m_busy, DocumentAction::LanguageSwitch, this);
    if (!hold) {
        checkCurrentLanguage(*this);
        return false;
    }
    return applyLanguage(code);
}

bool MainWindow::applyLanguage(const QString& code) {
    const auto checkCurrent = [this] { checkCurrentLanguage(*this); };
    if (!availableLanguages().contains(code)) {
        checkCurrent();
        return false;
    }
    if (code == currentLanguage()) {
        saveLanguage(code);
        return true;
    }
    if (!installLanguage(code)) {
        checkCurrent();
        return false;
    }
    saveLanguage(code);
    rebuildUi();
    return true;
}

void MainWindow::rebuildUi() {
    // What only the widgets hold.
    saveSettings();
    const int tab = m_charts->currentIndex();
    const ScalingAxis axis = m_curves->scalingAxis();
    const auto* valuesField = m_curves->findChild<QLineEdit*>(QStringLiteral("scalingValues"));
    const QString values = valuesField ? valuesField->text() : QString();
    const int paretoPoints = m_curves->paretoPoints();
    const QByteArray layout = saveState(Settings::kWindowStateVersion);

    // The objects that stay lose their connections to what goes (the rest die with it).
    disconnect(m_sweep, nullptr, this, nullptr);
    disconnect(m_sweep, nullptr, m_document, nullptr);
    disconnect(m_predictions, nullptr, this, nullptr);
    disconnect(m_document, nullptr, this, nullptr);
    disconnect(m_files, nullptr, this, nullptr);

    delete m_exporter;
    m_exporter = nullptr;
    // An add-on (the lesson mode) owns docks and menus of its own: it goes now and is built
    // again below, carrying what it showed (the open lesson, step and answer).
    Q_EMIT widgetsAboutToRebuild();
    for (QToolBar* toolbar : findChildren<QToolBar*>(Qt::FindDirectChildrenOnly)) {
        removeToolBar(toolbar);
        delete toolbar;
    }
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        removeDockWidget(dock);
        delete dock;
    }
    for (QAction* action : findChildren<QAction*>(Qt::FindDirectChildrenOnly)) delete action;
    setMenuBar(new QMenuBar);
    setStatusBar(new QStatusBar);
    delete m_model;
    m_model = nullptr;
    m_statusNote.clear();

    createPanels();  // replaces the central widget, deleting the old charts
    m_exporter = new ChartExporter(m_charts, m_document, &m_settings, this);
    createActions();
    createMenus();
    connectSignals();
    if (m_addOn) m_addOn(*this, parts());  // as the constructor does
    restoreSettings();
    restoreState(layout, Settings::kWindowStateVersion);
    // Once the new widgets are laid out, the dock sizes apply as they were (before, the new
    // results table's size hint wins and squeezes the charts).
    QMetaObject::invokeMethod(
        this, [this, layout] { restoreState(layout, Settings::kWindowStateVersion); },
        Qt::QueuedConnection);
    m_curves->setScaling(axis, values);
    m_curves->paretoPointsBox()->setValue(paretoPoints);

    // The new views catch up with the document as if it had just been opened.
    const int selected = m_document->selectedRun();
    Q_EMIT m_document->resetDone();
    Q_EMIT m_document->frontierChanged();
    Q_EMIT m_document->notesChanged();
    if (selected >= 0) Q_EMIT m_document->selectionChanged(selected);
    if (tab >= 0 && tab < m_charts->count()) m_charts->setCurrentIndex(tab);
    updateActions();
    updateTitle();
}

}  // namespace ckptlab::ui
