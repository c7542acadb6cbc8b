// The window's first minute (issue #37): its first size on a screen, and the state of the tabs' panes kept for
// the next tab of their kind.
#include "MainWindow.h"

#include "compare/DiffView.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"

#include <QGuiApplication>
#include <QScreen>

namespace qflame {

void MainWindow::savePaneState(QWidget *tab) const
{
    if (auto *p = qobject_cast<ProfilePane *>(tab))
        p->secondaryPanes()->saveState();
    else if (auto *d = qobject_cast<DiffPane *>(tab))
        d->diffView()->secondaryPanes()->saveState();
}

MainWindow::FirstGeometry MainWindow::firstGeometry(const QRect &available)
{
    // A laptop's screen (up to 1600 x 900): all of it, the flamegraph needs every row. A larger one: most of it,
    // centred, leaving room to see what is beside the window.
    if (available.width() <= 1600 || available.height() <= 900)
        return {available, true};
    QRect r(0, 0, int(available.width() * 0.85), int(available.height() * 0.88));
    r.moveCenter(available.center());
    return {r, false};
}

void MainWindow::showFirstTime()
{
    if (m_restoredGeometry) {   // the size and place the window had when it was last closed
        show();
        return;
    }
    const QScreen *screen = QGuiApplication::primaryScreen();
    const FirstGeometry g = firstGeometry(screen ? screen->availableGeometry() : QRect(0, 0, 1280, 800));
    // The size first, also when maximized: an X server without a window manager (Xvfb, a kiosk) ignores the
    // request to maximize, and the window would keep Qt's default size of a few hundred pixels.
    resize(g.rect.size());
    move(g.rect.topLeft());
    if (g.maximized)
        showMaximized();
    else
        show();
}

}   // namespace qflame
