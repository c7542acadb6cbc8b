// What the window shows when no tab is open: the recent files and comparisons, the saved qryn connections,
// Open / Compare / Connect, and a drop target (one file dropped opens, two compare, as on the window). It only
// shows and asks: MainWindow gives it the lists and does what its signals ask.
#pragma once

#include <QStringList>
#include <QWidget>

class QFrame;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace qflame {

class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget *parent = nullptr);

    // Entries as MainWindow::recentFiles() keeps them: a path or URL, or "BASE\nNEW" for a comparison.
    void setRecent(const QStringList &entries);
    // The saved connections' names, each with its server's URL.
    void setConnections(const QStringList &names, const QStringList &urls);

    // How a recent entry reads in a list or menu: the file's name, "base.pb.gz → new.pb.gz" for a comparison, a
    // URL without its scheme.
    static QString recentText(const QString &entry);

    QListWidget *recentList() const { return m_recent; }
    QListWidget *connectionList() const { return m_connections; }
    QPushButton *openButton() const { return m_open; }
    QPushButton *compareButton() const { return m_compare; }
    QPushButton *connectButton() const { return m_connect; }
    QFrame *dropTarget() const { return m_drop; }

Q_SIGNALS:
    void openRequested();
    void compareRequested();
    void connectRequested();
    void recentActivated(const QString &entry);
    void connectionActivated(const QString &name);
    void filesDropped(const QStringList &paths);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void highlightDrop(bool on);

    QListWidget *m_recent, *m_connections;
    QLabel *m_noRecent, *m_noConnections;
    QPushButton *m_open, *m_compare, *m_connect;
    QFrame *m_drop;
};

}   // namespace qflame
