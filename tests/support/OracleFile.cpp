#include "OracleFile.h"

#include <QList>

namespace qflame::test {

namespace {

// One whitespace-separated token from `pos`; leading spaces skipped.
bool token(const QByteArray &line, qsizetype &pos, QByteArray *out)
{
    while (pos < line.size() && line[pos] == ' ')
        ++pos;
    const qsizetype start = pos;
    while (pos < line.size() && line[pos] != ' ')
        ++pos;
    *out = line.mid(start, pos - start);
    return pos > start;
}

bool leadingInteger(const QByteArray &tok, int64_t *value)
{
    qsizetype i = 0;
    bool neg = false;
    if (i < tok.size() && tok[i] == '-') {
        neg = true;
        ++i;
    }
    if (i >= tok.size() || tok[i] < '0' || tok[i] > '9')
        return false;
    int64_t v = 0;
    for (; i < tok.size() && tok[i] >= '0' && tok[i] <= '9'; ++i)
        v = v * 10 + (tok[i] - '0');
    *value = neg ? -v : v;
    return true;
}

bool parseRow(const QByteArray &line, OracleRow *row)
{
    qsizetype pos = 0;
    QByteArray flat, flatPct, sumPct, cum, cumPct;
    if (!token(line, pos, &flat) || !token(line, pos, &flatPct) || !token(line, pos, &sumPct) ||
        !token(line, pos, &cum) || !token(line, pos, &cumPct))
        return false;
    if (!flatPct.endsWith('%') || !sumPct.endsWith('%') || !cumPct.endsWith('%'))
        return false;
    if (!leadingInteger(flat, &row->flat) || !leadingInteger(cum, &row->cum))
        return false;
    if (line.mid(pos, 2) != "  ")
        return false;
    row->name = line.mid(pos + 2).toStdString();
    return true;
}

}   // namespace

std::vector<OracleRow> parseTopOracle(const QByteArray &text, QString *error)
{
    std::vector<OracleRow> rows;
    const QList<QByteArray> lines = text.split('\n');
    qsizetype i = 0;
    while (i < lines.size() && !lines[i].trimmed().startsWith("flat  flat%"))
        ++i;
    if (i == lines.size()) {
        *error = QStringLiteral("no table header in the oracle");
        return rows;
    }
    for (++i; i < lines.size(); ++i) {
        OracleRow row;
        if (parseRow(lines[i], &row)) {
            rows.push_back(row);
        } else if (!rows.empty() && i + 1 < lines.size()) {
            rows.back().name += "\n" + lines[i].toStdString();
        } else if (!lines[i].isEmpty()) {
            *error = QStringLiteral("unparsable oracle line %1").arg(i + 1);
            return rows;
        }
    }
    return rows;
}

}   // namespace qflame::test
