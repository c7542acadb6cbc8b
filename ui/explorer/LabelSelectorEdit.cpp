#include "explorer/LabelSelectorEdit.h"

#include <QCompleter>
#include <QRegularExpression>
#include <QStringListModel>

namespace qflame::qryn {

LabelSelectorEdit::LabelSelectorEdit(QWidget *parent) : QLineEdit(parent)
{
    setPlaceholderText(QStringLiteral("{service_name=\"...\"}"));
    m_model = new QStringListModel(this);
    m_completer = new QCompleter(m_model, this);
    m_completer->setCaseSensitivity(Qt::CaseSensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    setCompleter(m_completer);
    connect(this, &QLineEdit::textEdited, this, &LabelSelectorEdit::updateCompletions);
}

void LabelSelectorEdit::setLabelNames(const QStringList &names)
{
    m_names = names;
    updateCompletions();
}

void LabelSelectorEdit::setLabelValues(const QString &name, const QStringList &values)
{
    QStringList v = values;
    v.sort();
    m_values.insert(name, v);
    updateCompletions();
}

QStringList LabelSelectorEdit::candidates() const
{
    const QString before = text().left(cursorPosition());
    // The matcher being typed: everything after the last `{` or `,` outside quotes.
    int start = 0;
    bool quoted = false;
    for (int i = 0; i < before.size(); ++i) {
        const QChar c = before.at(i);
        if (c == QLatin1Char('\\') && quoted) {
            ++i;
            continue;
        }
        if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (!quoted && (c == QLatin1Char('{') || c == QLatin1Char(',')))
            start = i + 1;
    }
    const QString head = before.left(start);
    const QString part = before.mid(start);
    static const QRegularExpression nameRx(QStringLiteral("^\\s*([A-Za-z0-9_]*)$"));
    static const QRegularExpression valueRx(QStringLiteral("^\\s*([A-Za-z0-9_]+)\\s*(=|!=|=~|!~)\\s*\"([^\"]*)$"));
    QStringList out;
    if (const auto m = nameRx.match(part); m.hasMatch() && (start > 0 || before.isEmpty())) {
        const QString lead = part.left(part.size() - m.captured(1).size());
        for (const QString &n : m_names)
            out << head + lead + n + QStringLiteral("=\"");
    } else if (const auto v = valueRx.match(part); v.hasMatch()) {
        const QString prefix = head + part.left(part.size() - v.captured(3).size());
        // Values are quoted as the selector syntax needs, and the matcher is closed.
        for (const QString &value : m_values.value(v.captured(1))) {
            QString escaped = value;
            escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
            out << prefix + escaped + QLatin1Char('"');
        }
    }
    return out;
}

void LabelSelectorEdit::updateCompletions()
{
    const QString before = text().left(cursorPosition());
    static const QRegularExpression wantRx(QStringLiteral("([A-Za-z0-9_]+)\\s*(=|!=|=~|!~)\\s*\"[^\"]*$"));
    if (const auto m = wantRx.match(before); m.hasMatch() && !m_values.contains(m.captured(1)))
        Q_EMIT valuesWanted(m.captured(1));
    m_model->setStringList(candidates());
}

}   // namespace qflame::qryn
