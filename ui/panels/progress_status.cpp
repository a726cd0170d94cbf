#include "panels/progress_status.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <algorithm>
#include <cmath>

#include "document/format.h"

namespace ckptlab::ui {

ProgressStatus::ProgressStatus(QWidget* parent)
    : QWidget(parent), m_bar(new QProgressBar(this)), m_label(new QLabel(this)) {
    setObjectName(QStringLiteral("progressStatus"));
    m_bar->setObjectName(QStringLiteral("progressBar"));
    m_bar->setFixedWidth(220);
    m_bar->setTextVisible(false);
    m_label->setObjectName(QStringLiteral("progressMessage"));
    m_label->setMinimumWidth(420);
    m_label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_bar);
    hide();
}

void ProgressStatus::begin(const QString& message) {
    m_sinceFirstReport.invalidate();
    m_bar->setRange(0, 0);  // busy indicator until the runner reports
    m_label->setText(message);
    show();
}

void ProgressStatus::report(double fraction, const QString& message) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (!m_sinceFirstReport.isValid()) {
        m_sinceFirstReport.start();
        m_firstFraction = fraction;
        m_bar->setRange(0, kMaximum);
    }
    m_bar->setValue(int(std::lround(fraction * kMaximum)));

    // The ETA extrapolates the rate since the first report; shown once there is a rate.
    QString eta;
    const double done = fraction - m_firstFraction;
    const double elapsed = m_sinceFirstReport.elapsed() / 1000.0;
    if (done > 0.01 && elapsed > 1.0)
        eta = tr(" — about %1 left").arg(formatDuration(elapsed * (1.0 - fraction) / done));
    m_label->setText(
        QStringLiteral("%1 (%2 %)%3").arg(message).arg(fraction * 100.0, 0, 'f', 0).arg(eta));
}

void ProgressStatus::cancelling() { m_label->setText(tr("Cancelling…")); }

void ProgressStatus::end() {
    hide();
    m_bar->setRange(0, kMaximum);
    m_bar->reset();
}

}  // namespace ckptlab::ui
