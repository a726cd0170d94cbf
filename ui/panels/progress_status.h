#pragma once
// The sweep's progress in the status bar: indeterminate until the first report, then 0-1000
// with the runner's message and an ETA.

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;

namespace ckptlab::ui {

class ProgressStatus : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaximum = 1000;

    explicit ProgressStatus(QWidget* parent = nullptr);

public Q_SLOTS:
    void begin(const QString& message);
    void report(double fraction, const QString& message);
    void cancelling();
    void end();

private:
    QProgressBar* m_bar;
    QLabel* m_label;
    QElapsedTimer m_sinceFirstReport;
    double m_firstFraction = 0;
};

}  // namespace ckptlab::ui
