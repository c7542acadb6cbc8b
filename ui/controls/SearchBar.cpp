#include "controls/SearchBar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace qflame {

SearchBar::SearchBar(QWidget *parent) : QWidget(parent)
{
    m_edit = new QLineEdit;
    m_edit->setPlaceholderText(tr("Search frames (regular expression; Enter: next match, Shift+Enter: previous)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    m_case = new QToolButton;
    m_case->setText(QStringLiteral("Aa"));
    m_case->setCheckable(true);
    m_case->setToolTip(tr("Case sensitive"));
    m_edit->setToolTip(tr("Frames whose name matches this regular expression keep their colour, the rest are "
                          "dimmed (Ctrl+F; Enter: next match, Shift+Enter: previous, Esc: clear)"));
    m_result = new QLabel;
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 3);
    layout->addWidget(m_case);
    layout->addWidget(m_result, 2);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &SearchBar::changed);
    connect(m_case, &QToolButton::toggled, this, &SearchBar::changed);
}

QString SearchBar::pattern() const
{
    return m_edit->text();
}

Qt::CaseSensitivity SearchBar::caseSensitivity() const
{
    return m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
}

void SearchBar::setPattern(const QString &pattern)
{
    m_edit->setText(pattern);
    m_debounce->stop();
    Q_EMIT changed();
}

void SearchBar::setResultText(const QString &text, bool error)
{
    m_result->setText(text);
    m_result->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
}

QString SearchBar::resultText() const
{
    return m_result->text();
}

void SearchBar::focusSearch()
{
    m_edit->setFocus();
    m_edit->selectAll();
}

QList<QPair<QString, QString>> SearchBar::keyBindings()
{
    // In step with eventFilter below.
    return {{tr("Enter"), tr("Next match")}, {tr("Shift+Enter"), tr("Previous match")},
            {tr("Esc"), tr("Clear the search")}};
}

bool SearchBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (m_debounce->isActive()) {
                m_debounce->stop();
                Q_EMIT changed();
            }
            Q_EMIT stepRequested(key->modifiers() & Qt::ShiftModifier ? -1 : 1);
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_edit->text().isEmpty()) {
            setPattern(QString());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}   // namespace qflame
