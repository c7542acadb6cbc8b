// The small pure pieces of the qryn client: time specs, label selectors, profile type IDs, and how error answers
// become one-line messages, the steps of a server's rounds. No network.
#include "qryn/ConnectionSettings.h"
#include "qryn/LabelSelector.h"
#include "qryn/QrynError.h"
#include "qryn/QrynTypes.h"
#include "qryn/ServerRounds.h"
#include "qryn/TimeSpec.h"

#include <QTest>

using namespace qflame::qryn;

namespace {

constexpr qint64 kNow = 1795986800123;   // 2026-11-29T21:13:20.123Z

}   // namespace

class tst_QrynTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseTimeSpec_data();
    void parseTimeSpec();
    void formatTimeMs();
    void noProfilesMessage();
    void parseSelector_data();
    void parseSelector();
    void quoteAndFormat();
    void profileTypeId_data();
    void profileTypeId();
    void serverMessage_data();
    void serverMessage();
    void httpError_data();
    void httpError();
    void describeBody();
    void settings_data();
    void settings();
    void roundSteps();
    void observationsFromSeries();
};

void tst_QrynTime::parseTimeSpec_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");   // -1: refused
    QTest::addColumn<QString>("why");
    QTest::newRow("now") << "now" << kNow << "";
    QTest::newRow("now-1h") << "now-1h" << kNow - 3600000 << "";
    QTest::newRow("now-20m") << "now-20m" << kNow - 1200000 << "";
    QTest::newRow("now-90s") << "now-90s" << kNow - 90000 << "";
    QTest::newRow("now-7d") << "now-7d" << kNow - 7 * 86400000LL << "";
    QTest::newRow("now-2w") << "now-2w" << kNow - 14 * 86400000LL << "";
    QTest::newRow("now-1h30m") << "now-1h30m" << kNow - 5400000 << "";
    QTest::newRow("now-250ms") << "now-250ms" << kNow - 250 << "";
    QTest::newRow("now+5m") << "now+5m" << kNow + 300000 << "";
    QTest::newRow("spaces") << "  now-1h " << kNow - 3600000 << "";
    QTest::newRow("epoch s") << "1795986500" << 1795986500000LL << "";
    QTest::newRow("epoch ms") << "1795986500123" << 1795986500123LL << "";
    QTest::newRow("largest seconds") << "99999999999" << 99999999999000LL << "";
    QTest::newRow("smallest ms") << "100000000000" << 100000000000LL << "";
    QTest::newRow("RFC 3339 Z") << "2026-11-29T21:00:00Z" << 1795986000000LL << "";
    QTest::newRow("RFC 3339 ms") << "2026-11-29T21:00:00.250Z" << 1795986000250LL << "";
    QTest::newRow("RFC 3339 ns cut to ms") << "2026-11-29T21:00:00.123456789Z" << 1795986000123LL << "";
    QTest::newRow("RFC 3339 offset") << "2026-11-29T22:00:00+01:00" << 1795986000000LL << "";
    QTest::newRow("RFC 3339 negative offset") << "2026-11-29T16:00:00-05:00" << 1795986000000LL << "";
    QTest::newRow("RFC 3339 lower case, space") << "2026-11-29 21:00:00z" << 1795986000000LL << "";
    const QString forms = QStringLiteral(
        "use RFC 3339 (2026-11-29T21:00:00Z), epoch seconds or ms, now, or now-<N><unit> (ms s m h d w)");
    QTest::newRow("no zone") << "2026-11-29T21:00:00" << -1LL
                             << "'2026-11-29T21:00:00' is not a time: add a zone, 'Z' for UTC or an offset like +01:00";
    QTest::newRow("word") << "yesterday" << -1LL << "'yesterday' is not a time: " + forms;
    QTest::newRow("empty") << "" << -1LL << "'' is not a time: " + forms;
    QTest::newRow("now-1") << "now-1" << -1LL
                           << "'now-1' is not a time: the offset after 'now' must be like 1h, 20m, 90s, 7d or 1h30m";
    QTest::newRow("now-1y") << "now-1y" << -1LL
                            << "'now-1y' is not a time: the offset after 'now' must be like 1h, 20m, 90s, 7d or 1h30m";
    QTest::newRow("nowish") << "nowish" << -1LL << "'nowish' is not a time: " + forms;
    QTest::newRow("February 30") << "2026-02-30T00:00:00Z" << -1LL
                                 << "'2026-02-30T00:00:00Z' is not a time: no such date or time";
    QTest::newRow("negative epoch") << "-5" << -1LL << "'-5' is not a time: " + forms;
}

void tst_QrynTime::parseTimeSpec()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    QFETCH(QString, why);
    QString reason;
    const std::optional<qint64> got = qflame::qryn::parseTimeSpec(text, kNow, &reason);
    if (ms < 0) {
        QVERIFY(!got);
        QCOMPARE(reason, why);
    } else {
        QVERIFY2(got, qPrintable(reason));
        QCOMPARE(*got, ms);
    }
}

void tst_QrynTime::formatTimeMs()
{
    QCOMPARE(qflame::qryn::formatTimeMs(kNow), QStringLiteral("2026-11-29T21:13:20.123Z"));
    QCOMPARE(qflame::qryn::formatTimeMs(0), QStringLiteral("1970-01-01T00:00:00.000Z"));
}

void tst_QrynTime::noProfilesMessage()
{
    QCOMPARE(qflame::qryn::noProfilesMessage({"a:b:c:d:e", "{env=\"x\"}", {kNow - 3600000, kNow}}),
             QStringLiteral("no profiles of type a:b:c:d:e match {env=\"x\"} between 2026-11-29T20:13:20.123Z and "
                            "2026-11-29T21:13:20.123Z"));
    QCOMPARE(qflame::qryn::noProfilesMessage({"a:b:c:d:e", "", {0, 1000}}),
             QStringLiteral("no profiles of type a:b:c:d:e match {} between 1970-01-01T00:00:00.000Z and "
                            "1970-01-01T00:00:01.000Z"));
}

void tst_QrynTime::parseSelector_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("parsed");   // name|op|value; ... or "!" + the reason
    QTest::newRow("empty") << "" << "";
    QTest::newRow("braces") << "{}" << "";
    QTest::newRow("one") << "{service_name=\"svc-a\"}" << "service_name|=|svc-a";
    QTest::newRow("operators") << "{a=\"1\", b!=\"2\", c=~\"3|4\", d!~\"5\"}" << "a|=|1;b|!=|2;c|=~|3|4;d|!~|5";
    QTest::newRow("no braces") << "service_name=\"svc-a\"" << "service_name|=|svc-a";
    QTest::newRow("no commas (qryn accepts)") << "{a=\"1\" b=\"2\"}" << "a|=|1;b|=|2";
    QTest::newRow("trailing comma") << "{a=\"1\",}" << "a|=|1";
    QTest::newRow("spaces") << "{ a = \"1\" ,b= \"2\" }" << "a|=|1;b|=|2";
    QTest::newRow("JSON escapes") << "{a=\"x\\\"y\\\\z\\u00e9\"}" << QString("a|=|x\"y\\z\u00e9");
    QTest::newRow("unquoted") << "{env=ci}" << "!the value of env must be in double quotes: env=\"ci\"";
    QTest::newRow("single quotes") << "{env='ci'}" << "!the value of env must be in double quotes: env=\"ci\"";
    QTest::newRow("unquoted second") << "{a=\"1\", env=~ci.*}"
                                     << "!the value of env must be in double quotes: env=~\"ci.*\"";
    QTest::newRow("no operator") << "{env}" << "!expected name=\"value\" (operators = != =~ !~) at 'env'";
    QTest::newRow("bad name") << "{a-b=\"1\"}" << "!expected name=\"value\" (operators = != =~ !~) at 'a-b=\"1\"'";
    QTest::newRow("unterminated") << "{a=\"1}" << "!expected name=\"value\" (operators = != =~ !~) at 'a=\"1'";
    QTest::newRow("bad escape") << "{a=\"\\q\"}" << "!the value \"\\q\" is not a valid JSON string";
}

void tst_QrynTime::parseSelector()
{
    QFETCH(QString, selector);
    QFETCH(QString, parsed);
    QString why;
    const auto matchers = qflame::qryn::parseSelector(selector, &why);
    if (parsed.startsWith(u'!')) {
        QVERIFY(!matchers);
        QCOMPARE(why, parsed.mid(1));
        return;
    }
    QVERIFY2(matchers, qPrintable(why));
    QStringList got;
    for (const Matcher &m : *matchers)
        got << m.name + u'|' + m.op + u'|' + m.value;
    QCOMPARE(got.join(u';'), parsed);
}

void tst_QrynTime::quoteAndFormat()
{
    QCOMPARE(quoteValue("svc-a"), QStringLiteral("\"svc-a\""));
    QCOMPARE(quoteValue("a\"b\\c\nd"), QStringLiteral("\"a\\\"b\\\\c\\nd\""));
    QCOMPARE(formatSelector({}), QStringLiteral("{}"));
    const QList<Matcher> m{{"service_name", "=", "svc \"a\""}, {"version", "=~", anchoredRegex("base|pgo")}};
    QCOMPARE(formatSelector(m), QStringLiteral("{service_name=\"svc \\\"a\\\"\", version=~\"^(?:base|pgo)$\"}"));
    // What formatSelector writes, parseSelector (qryn's grammar) reads back.
    QString why;
    QCOMPARE(qflame::qryn::parseSelector(formatSelector(m), &why), std::optional(m));
}

void tst_QrynTime::profileTypeId_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("parts");   // "" = refused
    QTest::newRow("cpu") << "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
                         << "process_cpu/cpu/nanoseconds/cpu/nanoseconds";
    QTest::newRow("heap") << "memory:alloc_space:bytes:space:bytes" << "memory/alloc_space/bytes/space/bytes";
    QTest::newRow("one part") << "cpu" << "";
    QTest::newRow("six parts") << "a:b:c:d:e:f" << "";
    QTest::newRow("empty part") << "a::c:d:e" << "";
}

void tst_QrynTime::profileTypeId()
{
    QFETCH(QString, id);
    QFETCH(QString, parts);
    ProfileType t;
    const bool ok = ProfileType::parse(id, &t);
    QCOMPARE(ok, !parts.isEmpty());
    if (ok) {
        QCOMPARE(QStringList({t.name, t.sampleType, t.sampleUnit, t.periodType, t.periodUnit}).join(u'/'), parts);
        QCOMPARE(t.id, id);
    }
}

void tst_QrynTime::serverMessage_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message");
    QTest::newRow("qryn 3") << QByteArray(R"({"statusCode":400,"error":"Bad Request","message":"invalid type id"})")
                            << "invalid type id";
    QTest::newRow("qryn 3, 401 without error")
        << QByteArray(R"({"statusCode":401,"message":"Missing or bad formatted authorization header"})")
        << "Missing or bad formatted authorization header";
    QTest::newRow("qryn 4") << QByteArray("\"invalid type id\"\n") << "invalid type id";
    QTest::newRow("Connect") << QByteArray(R"({"code":"invalid_argument","message":"bad selector"})")
                             << "bad selector";
    QTest::newRow("Connect, code only") << QByteArray(R"({"code":"unauthenticated"})") << "unauthenticated";
    QTest::newRow("text") << QByteArray("404 Not Supported") << "404 Not Supported";
    QTest::newRow("lines and spaces") << QByteArray("  upstream\n   timed out \r\n") << "upstream timed out";
    QTest::newRow("empty") << QByteArray() << "";
    QTest::newRow("binary") << QByteArray("\x08\x01\x12\x00\xff", 5) << "(5 bytes of binary data)";
    QTest::newRow("long") << QByteArray(400, 'x') << QString(299, u'x') + QChar(0x2026);
}

void tst_QrynTime::serverMessage()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    QCOMPARE(qflame::qryn::serverMessage(body), message);
}

void tst_QrynTime::httpError_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("credentials");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    const QByteArray qryn500(R"({"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"})");
    QTest::newRow("qryn 500") << 500 << "Internal Server Error" << qryn500 << false << int(ErrorKind::ServerError)
                              << "HTTP 500 Internal Server Error: the server gave no details (its log has the cause)";
    QTest::newRow("500 with details") << 500 << "" << QByteArray("\"query failed: no such table\"") << false
                                      << int(ErrorKind::ServerError)
                                      << "HTTP 500 Internal Server Error: query failed: no such table";
    QTest::newRow("400") << 400 << "Bad Request"
                         << QByteArray(R"({"statusCode":400,"error":"Bad Request","message":"No step provided"})")
                         << false << int(ErrorKind::BadRequest) << "HTTP 400 Bad Request: No step provided";
    QTest::newRow("401 sent") << 401 << "Unauthorized" << QByteArray(R"({"message":"Wrong username/password."})")
                              << true << int(ErrorKind::Unauthorized)
                              << "HTTP 401 Unauthorized: the server rejected the credentials: Wrong username/password.";
    QTest::newRow("401 none") << 401 << "Unauthorized" << QByteArray() << false << int(ErrorKind::Unauthorized)
                              << "HTTP 401 Unauthorized: the server requires credentials";
    QTest::newRow("403") << 403 << "" << QByteArray(R"({"code":"permission_denied","message":"no access to tenant"})")
                         << true << int(ErrorKind::Unauthorized)
                         << "HTTP 403 Forbidden: the server rejected the credentials: no access to tenant";
    QTest::newRow("404") << 404 << "Not Found" << QByteArray("404 Not Supported") << false << int(ErrorKind::NotFound)
                         << "HTTP 404 Not Found: the server does not serve this path (is the URL the server's base "
                            "address?): 404 Not Supported";
    QTest::newRow("502") << 502 << "Bad Gateway" << QByteArray("<html><body>bad gateway</body></html>") << false
                         << int(ErrorKind::ServerError)
                         << "HTTP 502 Bad Gateway: <html><body>bad gateway</body></html>";
    QTest::newRow("429") << 429 << "" << QByteArray() << false << int(ErrorKind::HttpError)
                         << "HTTP 429 Too Many Requests";
    QTest::newRow("418") << 418 << "" << QByteArray("teapot") << false << int(ErrorKind::HttpError)
                         << "HTTP 418: teapot";
}

void tst_QrynTime::httpError()
{
    QFETCH(int, status);
    QFETCH(QString, reason);
    QFETCH(QByteArray, body);
    QFETCH(bool, credentials);
    QFETCH(int, kind);
    QFETCH(QString, message);
    const RequestError e = qflame::qryn::httpError(status, reason, body, credentials);
    QCOMPARE(int(e.kind), kind);
    QCOMPARE(e.httpStatus, status);
    QCOMPARE(e.message, message);
}

void tst_QrynTime::describeBody()
{
    QCOMPARE(qflame::qryn::describeBody({}), QStringLiteral("an empty body"));
    QCOMPARE(qflame::qryn::describeBody("<html>proxy error</html>"),
             QStringLiteral("24 bytes starting \"<html>proxy error</html>\""));
    QCOMPARE(qflame::qryn::describeBody(QByteArray("\x0a\x05\xff\xfe\x00\x01\x02\x03\x04", 9)),
             QStringLiteral("9 bytes starting 0a 05 ff fe 00 01 02 03"));
}

void tst_QrynTime::settings_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("problem");
    QTest::newRow("fine") << "http://127.0.0.1:3100" << "" << "" << "" << "" << "";
    QTest::newRow("fine with auth") << "https://qryn.example:443/prefix/" << "u" << "p" << "" << "" << "";
    QTest::newRow("no URL") << "" << "" << "" << "" << "" << "no server URL given";
    QTest::newRow("ftp") << "ftp://host/" << "" << "" << "" << "" << "'ftp://host' is not an http:// or https:// URL";
    QTest::newRow("no host") << "http:///x" << "" << "" << "" << "" << "'http:///x' names no host";
    QTest::newRow("credentials in URL") << "http://u:p@host:3100" << "" << "" << "" << ""
                                        << "put credentials in the user and password settings, not in the URL";
    QTest::newRow("both auths") << "http://host" << "u" << "p" << "t" << ""
                                << "give either a user and password or a bearer token, not both";
    QTest::newRow("password alone") << "http://host" << "" << "p" << "" << "" << "a password needs a user name";
    QTest::newRow("missing CA file") << "https://host" << "" << "" << "" << "/nonexistent/ca.pem"
                                     << "cannot read the CA file /nonexistent/ca.pem";
    QTest::newRow("CA file without a certificate") << "https://host" << "" << "" << "" << QFINDTESTDATA("tst_qryntime.cpp")
                                                   << "the CA file " + QFINDTESTDATA("tst_qryntime.cpp") +
                                                          " holds no PEM certificate";
}

void tst_QrynTime::settings()
{
    QFETCH(QString, url);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QString, token);
    QFETCH(QString, caFile);
    QFETCH(QString, problem);
    ConnectionSettings s;
    s.url = QUrl(url);
    s.user = user;
    s.password = password;
    s.bearerToken = token;
    s.caFile = caFile;
    QCOMPARE(s.validate(), problem);
}

// The steps of a server's round (qryn/ServerRounds.h): about 60 per window, none under 10 s, whole seconds; the
// SelectSeries step whose epoch-aligned buckets never straddle a step's edge.
void tst_QrynTime::roundSteps()
{
    const auto w = [](qint64 fromS, qint64 toS) { return TimeRange{fromS * 1000, toS * 1000}; };
    QCOMPARE(roundStepSeconds(w(0, 60), 0), qint64(10));
    QCOMPARE(roundStepSeconds(w(0, 5), 0), qint64(10));
    QCOMPARE(roundStepSeconds(w(0, 1200), 0), qint64(20));
    QCOMPARE(roundStepSeconds(w(0, 3600), 0), qint64(60));
    QCOMPARE(roundStepSeconds(w(0, 3600), 7), qint64(7));
    // Whole seconds, as qryn floors them; the last step is the rest of the window.
    const std::vector<TimeRange> steps = qflame::qryn::roundSteps({1000'400, 1065'900}, 10);
    QCOMPARE(steps.size(), size_t(7));
    QCOMPARE(steps.front().startMs, qint64(1000'000));
    QCOMPARE(steps.back().startMs, qint64(1060'000));
    QCOMPARE(steps.back().endMs, qint64(1065'000));
    QVERIFY(qflame::qryn::roundSteps(w(5, 5), 10).empty());
    QCOMPARE(seriesStepSeconds(w(1000, 1060), 10), qint64(10));
    QCOMPARE(seriesStepSeconds(w(1005, 1065), 10), qint64(5));
    QCOMPARE(seriesStepSeconds(w(1000, 1065), 10), qint64(5));
    QCOMPARE(seriesStepSeconds(w(1001, 1061), 20), qint64(1));
}

// Points of every series summed per step; points outside the window dropped (qryn sends 7 days); empty steps 0.
void tst_QrynTime::observationsFromSeries()
{
    const std::vector<TimeRange> steps = qflame::qryn::roundSteps({100'000, 125'000}, 10);   // 10, 10, 5 s
    QList<Series> series(2);
    series[0].points = {{90'000, 7}, {100'000, 3}, {105'000, 4}, {120'000, 1e10}, {125'000, 99}};
    series[1].points = {{100'000, 5}};
    const std::vector<qflame::Observation> o = qflame::qryn::observationsFromSeries(series, steps, "r");
    QCOMPARE(o.size(), size_t(3));
    QCOMPARE(o[0].value, int64_t(12));
    QCOMPARE(o[1].value, int64_t(0));
    QCOMPARE(o[2].value, int64_t(10'000'000'000));
    QCOMPARE(o[0].durationNanos, int64_t(10'000'000'000));
    QCOMPARE(o[2].durationNanos, int64_t(5'000'000'000));
    QCOMPARE(o[1].source, std::string("r step 110000"));
}

QTEST_GUILESS_MAIN(tst_QrynTime)
#include "tst_qryntime.moc"
