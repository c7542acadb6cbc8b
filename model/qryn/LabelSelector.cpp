#include "qryn/LabelSelector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace qflame::qryn {

std::optional<QList<Matcher>> parseSelector(const QString &selector, QString *why)
{
    auto fail = [&](const QString &reason) -> std::optional<QList<Matcher>> {
        if (why)
            *why = reason;
        return std::nullopt;
    };
    // Mirrors qryn's parseLabelSelector: one optional '{' and '}', then matchers, each optionally preceded by a
    // comma, until nothing (or a lone '}' or ',') is left.
    QString rest = selector.trimmed();
    if (rest.startsWith(u'{'))
        rest.remove(0, 1);
    if (rest.endsWith(u'}'))
        rest.chop(1);
    static const QRegularExpression matcherRe(
        QStringLiteral("^(,)?\\s*([A-Za-z0-9_]+)\\s*(!=|!~|=~|=)\\s*(\"(?:[^\"\\\\]|\\\\.)*\")"));
    static const QRegularExpression unquotedRe(
        QStringLiteral("^(,)?\\s*([A-Za-z0-9_]+)\\s*(!=|!~|=~|=)\\s*([^\\s,\"]+)"));
    QList<Matcher> out;
    while (!rest.isEmpty() && rest != u"}" && rest != u",") {
        const QRegularExpressionMatch m = matcherRe.match(rest);
        if (!m.hasMatch()) {
            const QRegularExpressionMatch u = unquotedRe.match(rest);
            if (u.hasMatch()) {
                QString value = u.captured(4);
                if (value.size() >= 2 && value.startsWith(u'\'') && value.endsWith(u'\''))
                    value = value.mid(1, value.size() - 2);
                return fail(QStringLiteral("the value of %1 must be in double quotes: %1%2%3")
                                .arg(u.captured(2), u.captured(3), quoteValue(value)));
            }
            return fail(QStringLiteral("expected name=\"value\" (operators = != =~ !~) at '%1'").arg(rest));
        }
        // JSON.parse, as qryn decodes the quoted value; Qt's parser lets unknown escapes like \q through, so the
        // escapes are checked first.
        static const QRegularExpression strictJson(
            QStringLiteral("^\"(?:[^\"\\\\\\x00-\\x1f]|\\\\[\"\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*\"$"));
        const QJsonArray a = QJsonDocument::fromJson("[" + m.captured(4).toUtf8() + "]").array();
        if (!strictJson.match(m.captured(4)).hasMatch() || a.size() != 1 || !a.at(0).isString())
            return fail(QStringLiteral("the value %1 is not a valid JSON string").arg(m.captured(4)));
        out.push_back({m.captured(2), m.captured(3), a.at(0).toString()});
        rest = rest.mid(m.capturedEnd()).trimmed();
    }
    return out;
}

QString quoteValue(const QString &value)
{
    // The JSON encoding of a one-element array, minus the brackets: exactly what JSON.parse reads back.
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

QString formatSelector(const QList<Matcher> &matchers)
{
    QStringList parts;
    for (const Matcher &m : matchers)
        parts << m.name + m.op + quoteValue(m.value);
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

QString anchoredRegex(const QString &regex)
{
    return QStringLiteral("^(?:%1)$").arg(regex);
}

}   // namespace qflame::qryn
