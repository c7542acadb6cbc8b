// Label selectors, `{service_name="svc-a", env=~"a|b"}`, as qryn 3.2.39 reads them (qryn.md §3.2).
//
// qryn answers a malformed selector with a bare HTTP 500, so the client parses selectors itself to say what is
// wrong with one; and it builds selectors for the UI with the two qryn rules made explicit: values are always
// double-quoted, and a regex must be anchored by the caller (qryn's =~ is an unanchored RE2 search).
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace qflame::qryn {

struct Matcher {
    QString name;
    QString op;      // "=", "!=", "=~", "!~"
    QString value;   // unquoted
    bool operator==(const Matcher &) const = default;
};

// Parses a selector with qryn's grammar: matchers `name op "value"` separated by commas, names [A-Za-z0-9_]+,
// values in double quotes with JSON escapes; the braces are optional, "" and "{}" select everything. On failure
// returns nullopt and sets *why to what is wrong, in one line.
std::optional<QList<Matcher>> parseSelector(const QString &selector, QString *why);

// A value as the selector syntax needs it: double-quoted, with JSON escapes ("a\"b" for a"b).
QString quoteValue(const QString &value);

// {name="value", ...} from matchers; "{}" for none.
QString formatSelector(const QList<Matcher> &matchers);

// A regex that must match the whole value: ^(?:re)$. qryn's =~ matches anywhere in the value, so
// {version=~"as"} selects version="base"; Pyroscope anchors, and anchoring twice is harmless.
QString anchoredRegex(const QString &regex);

}   // namespace qflame::qryn
