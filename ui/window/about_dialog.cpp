#include "window/about_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtGlobal>

namespace ckptlab::ui {

namespace {

QString orUnknown(const std::string& value) {
    return value.empty() ? QObject::tr("unknown") : QString::fromStdString(value);
}

// Which OpenBLAS kernels run the matmuls and who chose them (ckptlab/engine/blas_kernels.h).
QString blasKernelText(const BlasKernel& kernel) {
    const QString name = QString::fromStdString(kernel.name);
    const QString better = QString::fromStdString(blasKernelInstructions(kernel.better));
    switch (kernel.chosen_by) {
    case BlasKernelChoice::Lab:
        return QObject::tr("%1, chosen by Checkpoint Lab instead of OpenBLAS's generic %2")
            .arg(name, QString::fromStdString(kernel.replaced));
    case BlasKernelChoice::User:
        return better.isEmpty()
                   ? QObject::tr("%1, from OPENBLAS_CORETYPE").arg(name)
                   : QObject::tr("%1, from OPENBLAS_CORETYPE (generic: this CPU has %2)")
                         .arg(name, better);
    case BlasKernelChoice::OpenBlas: break;
    }
    return better.isEmpty() ? QObject::tr("%1, detected by OpenBLAS").arg(name)
                            : QObject::tr("%1, detected by OpenBLAS (generic: this CPU has %2)")
                                  .arg(name, better);
}

QStringList facts(const Environment& env) {
    const QString threads = env.threads > 0 ? QString::number(env.threads) : QObject::tr("default");
    QString device = orUnknown(env.device);
    if (!env.device_name.empty())
        device += QStringLiteral(" (%1)").arg(QString::fromStdString(env.device_name));
    QStringList rows{
        QObject::tr("Checkpoint Lab") + QLatin1Char('\t') + QStringLiteral(CKPTLAB_VERSION),
        QObject::tr("Qt") + QLatin1Char('\t') + QString::fromLatin1(qVersion()) +
            QObject::tr(" (built with %1)").arg(QStringLiteral(QT_VERSION_STR)),
        QObject::tr("LibTorch") + QLatin1Char('\t') + orUnknown(env.libtorch_version) +
            (env.cuda_compiled ? QObject::tr(" with CUDA") : QObject::tr(", CPU only")),
        QObject::tr("BLAS") + QLatin1Char('\t') + orUnknown(env.blas),
        QObject::tr("Device") + QLatin1Char('\t') + device,
        QObject::tr("Threads") + QLatin1Char('\t') + threads,
    };
    if (env.blas_kernel)
        rows.insert(
            4, QObject::tr("BLAS kernels") + QLatin1Char('\t') + blasKernelText(*env.blas_kernel));
    return rows;
}

}  // namespace

QString AboutDialog::environmentText(const Environment& environment) {
    return facts(environment)
        .join(QLatin1Char('\n'))
        .replace(QLatin1Char('\t'), QStringLiteral(": "));
}

AboutDialog::AboutDialog(const Environment& environment, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("About Checkpoint Lab"));
    setMinimumWidth(460);
    auto* layout = new QVBoxLayout(this);

    auto* heading = new QLabel(
        tr("<h2>Checkpoint Lab %1</h2><p>Explore gradient checkpointing with real LibTorch "
           "measurements: what recomputing activations saves in memory and costs in time.</p>")
            .arg(QStringLiteral(CKPTLAB_VERSION)));
    heading->setWordWrap(true);
    layout->addWidget(heading);

    QString rows;
    for (const QString& fact : facts(environment)) {
        const QStringList cells = fact.split(QLatin1Char('\t'));
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(cells.value(0).toHtmlEscaped(), cells.value(1).toHtmlEscaped());
    }
    auto* table = new QLabel(QStringLiteral("<table cellspacing=4>%1</table>").arg(rows));
    table->setObjectName(QStringLiteral("environment"));
    table->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(table);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this,
            [environment] { QApplication::clipboard()->setText(environmentText(environment)); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

}  // namespace ckptlab::ui
