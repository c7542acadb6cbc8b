// What a real qryn 3.2.39 refuses, and the one-line messages the client makes of it: malformed selectors and type
// IDs, missing fields, broken server features, and basic auth; and the answers that are empty but not errors (a second qryn started with QRYN_LOGIN/PASSWORD by
// the ctest fixture qryn_auth_fixture_up). The bodies qryn sends are in tests/qryn/OBSERVED.md.
#include "qryn/ExportCheck.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"

#include <QDateTime>
#include <QTest>

#include <functional>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
const QString kBase = QStringLiteral("{service_name=\"svc-base\"}");
constexpr qint64 kHourMs = 3'600'000;

TimeRange lastHour()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    return {now - kHourMs, now};
}

// A request and the error it ends in, so one data-driven test covers every method.
using Call = std::function<RequestError(QrynClient &)>;

template <class T>
RequestError errorOf(QFuture<Result<T>> future)
{
    return QrynClient::wait(std::move(future)).error;
}

}   // namespace

Q_DECLARE_METATYPE(Call)

class tst_QrynClientErrors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refused_data();
    void refused();
    void basicAuth_data();
    void basicAuth();
    void rightPasswordGetsData();
    void emptyAnswersAreNotErrors();

private:
    test::QrynFixtureEnv m_env, m_auth;
};

void tst_QrynClientErrors::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE));
    m_auth = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_AUTH_FIXTURE));
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY2(m_auth.error.isEmpty(), qPrintable(m_auth.error));
    QCOMPARE(m_auth.value("QRYN_LOGIN"), QStringLiteral("qflame"));
}

void tst_QrynClientErrors::refused_data()
{
    QTest::addColumn<Call>("call");
    QTest::addColumn<ErrorKind>("kind");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");   // "<Method>: <problem>"
    const QString noDetails = QStringLiteral("HTTP 500 Internal Server Error: the server gave no details (its log "
                                             "has the cause)");
    QTest::newRow("unquoted value") << Call([](QrynClient &c) {
        return errorOf(c.selectMergeStacktraces({kCpu, "{service_name=svc-base}", lastHour()}));
    }) << ErrorKind::ServerError << 500
                                    << "SelectMergeStacktraces: " + noDetails +
                                           "; the label selector {service_name=svc-base} is malformed: the value of "
                                           "service_name must be in double quotes: service_name=\"svc-base\"";
    QTest::newRow("single-quoted value") << Call([](QrynClient &c) {
        return errorOf(c.selectMergeStacktraces({kCpu, "{service_name='svc-base'}", lastHour()}));
    }) << ErrorKind::ServerError << 500
                                         << "SelectMergeStacktraces: " + noDetails +
                                                "; the label selector {service_name='svc-base'} is malformed: the "
                                                "value of service_name must be in double quotes: "
                                                "service_name=\"svc-base\"";
    QTest::newRow("unquoted in SelectSeries") << Call([](QrynClient &c) {
        return errorOf(c.selectSeries({kCpu, "{env=ci}", lastHour()}, {}));
    }) << ErrorKind::ServerError << 500
                                              << "SelectSeries: " + noDetails +
                                                     "; the label selector {env=ci} is malformed: the value of env "
                                                     "must be in double quotes: env=\"ci\"";
    QTest::newRow("unquoted in LabelValues") << Call([](QrynClient &c) {
        return errorOf(c.labelValues("version", {"{service_name=svc-base}"}, lastHour()));
    }) << ErrorKind::ServerError << 500
                                             << "LabelValues: " + noDetails +
                                                    "; the label selector {service_name=svc-base} is malformed: the "
                                                    "value of service_name must be in double quotes: "
                                                    "service_name=\"svc-base\"";
    QTest::newRow("malformed type") << Call([](QrynClient &c) {
        return errorOf(c.selectMergeStacktraces({"cpu", "{}", lastHour()}));
    }) << ErrorKind::BadRequest << 400 << "SelectMergeStacktraces: HTTP 400 Bad Request: invalid type id";
    QTest::newRow("no type") << Call([](QrynClient &c) {
        return errorOf(c.selectMergeProfile({"", "{}", lastHour()}));
    }) << ErrorKind::BadRequest << 400 << "SelectMergeProfile: HTTP 400 Bad Request: No type provided";
    QTest::newRow("step 0") << Call([](QrynClient &c) {
        SeriesOptions o;
        o.stepSeconds = 0;
        return errorOf(c.selectSeries({kCpu, "{}", lastHour()}, o));
    }) << ErrorKind::BadRequest << 400 << "SelectSeries: HTTP 400 Bad Request: No step provided";
    QTest::newRow("AVERAGE (broken in 3.2.39)") << Call([](QrynClient &c) {
        SeriesOptions o;
        o.aggregation = Aggregation::Average;
        return errorOf(c.selectSeries({kCpu, "{}", lastHour()}, o));
    }) << ErrorKind::ServerError << 500 << "SelectSeries: " + noDetails;
    QTest::newRow("label values of no name") << Call([](QrynClient &c) {
        return errorOf(c.labelValues("", {}, lastHour()));
    }) << ErrorKind::ServerError << 500 << "LabelValues: " + noDetails;
}

void tst_QrynClientErrors::refused()
{
    QFETCH(Call, call);
    QFETCH(ErrorKind, kind);
    QFETCH(int, status);
    QFETCH(QString, message);
    ConnectionSettings settings;
    settings.url = m_env.url();
    QrynClient client(settings);
    const RequestError e = call(client);
    // "<Method>: ..." in the table; the client puts the server between them.
    const qsizetype colon = message.indexOf(QLatin1String(": "));
    QCOMPARE(e.message, message.left(colon) + " at " + m_env.value("QRYN_URL") + message.mid(colon));
    QCOMPARE(e.kind, kind);
    QCOMPARE(e.httpStatus, status);
}

void tst_QrynClientErrors::basicAuth_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("message");   // after "ProfileTypes at <url>: "
    const QString wrong = QStringLiteral("HTTP 401 Unauthorized: the server rejected the credentials: Unauthorized!: "
                                         "Wrong username/password.");
    QTest::newRow("wrong password") << "qflame" << "wrong" << "" << wrong;
    QTest::newRow("wrong user") << "nobody" << "s3cret" << "" << wrong;
    QTest::newRow("no credentials") << "" << "" << ""
                                    << "HTTP 401 Unauthorized: the server requires credentials: Missing or bad "
                                       "formatted authorization header";
    QTest::newRow("a bearer token") << "" << "" << "s3cret"
                                    << "HTTP 401 Unauthorized: the server rejected the credentials: Missing or bad "
                                       "formatted authorization header";
}

void tst_QrynClientErrors::basicAuth()
{
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QString, token);
    QFETCH(QString, message);
    ConnectionSettings s;
    s.url = m_auth.url();
    s.user = user;
    s.password = password;
    s.bearerToken = token;
    QrynClient client(s);
    const auto r = QrynClient::wait(client.profileTypes(lastHour()));
    QCOMPARE(r.error.message, "ProfileTypes at " + m_auth.value("QRYN_URL") + ": " + message);
    QCOMPARE(r.error.kind, ErrorKind::Unauthorized);
    QCOMPARE(r.error.httpStatus, 401);
}

void tst_QrynClientErrors::rightPasswordGetsData()
{
    ConnectionSettings s;
    s.url = m_auth.url();
    s.user = m_auth.value("QRYN_LOGIN");
    s.password = m_auth.value("QRYN_PASSWORD");
    QrynClient client(s);
    const auto types = QrynClient::wait(client.profileTypes(lastHour()));
    QVERIFY2(types.ok(), qPrintable(types.error.message));
    QStringList ids;
    for (const ProfileType &t : types.value)
        ids << t.id;
    ids.sort();
    // The auth instance was seeded like the main one; the heap profile adds the memory types.
    QCOMPARE(ids.filter("process_cpu:"), (QStringList{"process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                      "process_cpu:samples:count:cpu:nanoseconds"}));
    const auto graph = QrynClient::wait(client.selectMergeStacktraces({kCpu, kBase, lastHour()}));
    QVERIFY2(graph.ok(), qPrintable(graph.error.message));
    QCOMPARE(graph.value.graph.total, 9760000000LL);
}

// No data is an answer, not a failure: qryn's empty flamegraph, a 0-byte pprof, empty lists.
void tst_QrynClientErrors::emptyAnswersAreNotErrors()
{
    ConnectionSettings settings;
    settings.url = m_env.url();
    QrynClient client(settings);
    for (const QString &type : {QStringLiteral("nope:nope:nope:nope:nope"),
                                QStringLiteral("process_cpu:wall:nanoseconds:cpu:nanoseconds")}) {
        const auto graph = QrynClient::wait(client.selectMergeStacktraces({type, "{}", lastHour()}));
        QVERIFY2(graph.ok(), qPrintable(graph.error.message));
        QVERIFY(graph.value.isEmpty());
        QCOMPARE(graph.value.graph.names, (std::vector<std::string>{"total", "n/a"}));
        const auto profile = QrynClient::wait(client.selectMergeProfile({type, "{}", lastHour()}));
        QVERIFY2(profile.ok(), qPrintable(profile.error.message));
        QVERIFY(profile.value.isEmpty());
        QVERIFY(!profile.value.profile);
    }
    const TimeRange threeDaysAgo{lastHour().startMs - 71 * kHourMs, lastHour().endMs - 71 * kHourMs};
    const auto old = QrynClient::wait(client.selectMergeProfile({kCpu, "{}", threeDaysAgo}));
    QVERIFY2(old.ok() && old.value.isEmpty(), qPrintable(old.error.message));
    const auto types = QrynClient::wait(client.profileTypes(threeDaysAgo));
    QVERIFY2(types.ok(), qPrintable(types.error.message));
    QCOMPARE(types.value.size(), 0);
    const auto check = checkExportTotals(0, nullptr, {kCpu, "process_cpu", "cpu", "nanoseconds", "cpu", "nanoseconds"});
    QVERIFY(check.agree);
}

QTEST_GUILESS_MAIN(tst_QrynClientErrors)
#include "tst_qrynclienterrors.moc"
