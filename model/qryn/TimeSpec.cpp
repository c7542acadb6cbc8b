#include "qryn/TimeSpec.h"

#include <QDateTime>
#include <QRegularExpression>

namespace qflame::qryn {

namespace {

constexpr qint64 kSecondsMsBoundary = 100'000'000'000;   // 1e11: below, epoch seconds; at or above, epoch ms

std::optional<qint64> unitMs(QStringView unit)
{
    if (unit == u"ms")
        return 1;
    if (unit == u"s")
        return 1000;
    if (unit == u"m")
        return 60'000;
    if (unit == u"h")
        return 3'600'000;
    if (unit == u"d")
        return 86'400'000;
    if (unit == u"w")
        return 7 * 86'400'000LL;
    return std::nullopt;
}

// "1h30m" -> 5400000; nullopt when it is not a sequence of <digits><unit>.
std::optional<qint64> parseDuration(QStringView text)
{
    static const QRegularExpression part(QStringLiteral("(\\d{1,9})(ms|s|m|h|d|w)"));
    if (text.isEmpty())
        return std::nullopt;
    qint64 total = 0;
    qsizetype at = 0;
    while (at < text.size()) {
        const QRegularExpressionMatch m = part.match(text, at, QRegularExpression::NormalMatch,
                                                             QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            return std::nullopt;
        total += m.capturedView(1).toLongLong() * *unitMs(m.capturedView(2));
        at = m.capturedEnd();
    }
    return total;
}

}   // namespace

std::optional<qint64> parseTimeSpec(const QString &input, qint64 nowMs, QString *why)
{
    const QString text = input.trimmed();
    auto fail = [&](const QString &reason) -> std::optional<qint64> {
        if (why)
            *why = QStringLiteral("'%1' is not a time: %2").arg(input, reason);
        return std::nullopt;
    };
    static const QString kForms = QStringLiteral(
        "use RFC 3339 (2026-11-29T21:00:00Z), epoch seconds or ms, now, or now-<N><unit> (ms s m h d w)");
    if (text.isEmpty())
        return fail(kForms);
    if (text == u"now")
        return nowMs;
    if (text.startsWith(u"now")) {
        const QStringView rest = QStringView(text).mid(3);
        if (!rest.startsWith(u'-') && !rest.startsWith(u'+'))
            return fail(kForms);
        const std::optional<qint64> d = parseDuration(rest.mid(1));
        if (!d)
            return fail(QStringLiteral("the offset after 'now' must be like 1h, 20m, 90s, 7d or 1h30m"));
        return rest.startsWith(u'-') ? nowMs - *d : nowMs + *d;
    }
    static const QRegularExpression digits(QStringLiteral("^\\d{1,16}$"));
    if (digits.match(text).hasMatch()) {
        const qint64 v = text.toLongLong();
        return v >= kSecondsMsBoundary ? v : v * 1000;
    }
    // RFC 3339 needs a zone; a bare local time would silently depend on the machine's time zone.
    static const QRegularExpression rfc3339(QStringLiteral(
        "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$"));
    const QRegularExpressionMatch m = rfc3339.match(text);
    if (!m.hasMatch()) {
        static const QRegularExpression noZone(
            QStringLiteral("^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$"));
        if (noZone.match(text).hasMatch())
            return fail(QStringLiteral("add a zone, 'Z' for UTC or an offset like +01:00"));
        return fail(kForms);
    }
    QString iso = text;
    iso[10] = u'T';
    if (iso.endsWith(u'z'))
        iso[iso.size() - 1] = u'Z';
    // Qt reads at most milliseconds; RFC 3339 allows any number of fraction digits.
    if (!m.captured(1).isEmpty() && m.captured(1).size() > 4)
        iso.remove(m.capturedStart(1) + 4, m.capturedLength(1) - 4);
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!t.isValid())
        return fail(QStringLiteral("no such date or time"));
    return t.toMSecsSinceEpoch();
}

QString formatTimeMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

}   // namespace qflame::qryn
