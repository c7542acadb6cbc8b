// `qflame --time-to-paint FILE [NEW]`: the time from the process's start to the first flamegraph painted with a
// profile (or a comparison) in it, printed as "first paint: N ms", then the process ends (status 0; 2 when the
// files fail to load, with their error).
#pragma once

#include <QObject>

namespace qflame {

class MainWindow;

class FirstPaintProbe : public QObject {
    Q_OBJECT

public:
    // Watches every flamegraph widget of the application until one has painted a profile or a diff.
    explicit FirstPaintProbe(MainWindow &window);

    // Milliseconds since the process started (its fork: an exec, as `qflame` makes into qflame-gui, keeps it),
    // to the kernel clock's tick (10 ms on most systems).
    static qint64 millisecondsSinceProcessStart();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool m_done = false;
};

}   // namespace qflame
