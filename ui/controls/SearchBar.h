// Regex search over frame names: the pattern, a case toggle, and what it matched.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace qflame {

class SearchBar : public QWidget {
    Q_OBJECT

public:
    explicit SearchBar(QWidget *parent = nullptr);
    // The keys of the search field (eventFilter), as (keys, what they do), for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyBindings();
    QString pattern() const;
    Qt::CaseSensitivity caseSensitivity() const;
    void setPattern(const QString &pattern);   // emits changed() at once
    void setResultText(const QString &text, bool error);
    QString resultText() const;
    void focusSearch();

Q_SIGNALS:
    void changed();                     // pattern or case changed (debounced while typing)
    void stepRequested(int direction);  // Enter: +1, Shift+Enter: -1

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QLineEdit *m_edit;
    QToolButton *m_case;
    QLabel *m_result;
    QTimer *m_debounce;
};

}   // namespace qflame
