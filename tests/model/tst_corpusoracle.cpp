// For every profile go tool pprof reads and every sample type, our per-function flat and cum equal its -top
// output exactly; the profiles it rejects, we reject with a clear error.
//
// Rows come from MANIFEST.tsv of ../shared/corpus (skipped with a message when absent) and of tests/data (the
// project's own small real profiles, so that a clone alone tests).
#include "formats/ProfileInput.h"
#include "OracleFile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "SharedCorpus.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace qflame;
using qflame::test::OracleRow;

// QVERIFY for helpers that return bool.
#define CHECK2(cond, msg)                                                                                      \
    do {                                                                                                       \
        if (!QTest::qVerify(static_cast<bool>(cond), #cond, msg, __FILE__, __LINE__))                          \
            return false;                                                                                      \
    } while (false)
#define CHECK(cond) CHECK2(cond, "")

class tst_CorpusOracle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesGoToolPprof_data();
    void matchesGoToolPprof();
    void granularitiesMatchGoToolPprof_data();
    void granularitiesMatchGoToolPprof();
    void cleanupTestCase();

private:
    bool compare(const QString &profile, int sampleType, Granularity granularity, const QString &oracle);
    void addRows(const QString &dir, const QString &tag);
    int m_matched = 0;
    int m_rejected = 0;
    int m_failed = 0;
};

// The oracle's file name for sample type i, as regen-oracle.sh derives it.
static QStringList oracleTypeNames(const QString &sampleTypes)
{
    QStringList names;
    std::set<QString> seen;
    const QStringList types = sampleTypes.split(QLatin1Char(','));
    for (int i = 0; i < types.size(); ++i) {
        QString name = types[i].section(QLatin1Char('/'), 0, 0);
        if (name.isEmpty())
            name = QStringLiteral("sample%1").arg(i);
        if (seen.count(name))
            name += QStringLiteral(".%1").arg(i);
        seen.insert(name);
        names << name;
    }
    return names;
}

void tst_CorpusOracle::addRows(const QString &dir, const QString &tag)
{
    QFile manifest(dir + QStringLiteral("/MANIFEST.tsv"));
    QVERIFY2(manifest.open(QIODevice::ReadOnly), qPrintable(manifest.fileName()));
    const QStringList header = QString::fromUtf8(manifest.readLine()).trimmed().split(QLatin1Char('\t'));
    const int colFile = int(header.indexOf(QStringLiteral("file")));
    const int colTypes = int(header.indexOf(QStringLiteral("sample_types")));
    const int colVerdict = int(header.indexOf(QStringLiteral("go_tool_pprof")));
    QVERIFY(colFile >= 0 && colTypes >= 0 && colVerdict >= 0);
    while (!manifest.atEnd()) {
        const QStringList cols = QString::fromUtf8(manifest.readLine()).chopped(1).split(QLatin1Char('\t'));
        if (cols.size() <= colVerdict)
            continue;
        const QString file = cols[colFile];
        const QString path = dir + QLatin1Char('/') + file;
        if (cols[colVerdict] != QLatin1String("ok")) {
            QTest::newRow(qPrintable(tag + file + QStringLiteral(" (rejected)"))) << path << -1 << QString();
            continue;
        }
        const QStringList names = oracleTypeNames(cols[colTypes]);
        for (int i = 0; i < names.size(); ++i)
            QTest::newRow(qPrintable(tag + file + QLatin1Char(':') + names[i]))
                << path << i << dir + QStringLiteral("/oracle/") + file + QLatin1Char('.') + names[i] +
                                    QStringLiteral(".topall");
    }
}

void tst_CorpusOracle::matchesGoToolPprof_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("sampleType");   // -1: go tool pprof rejects the file
    QTest::addColumn<QString>("oracle");
    addRows(QStringLiteral(QFLAME_TEST_DATA), QStringLiteral("data/"));
    const QString corpus = qflame::test::sharedPath(QStringLiteral("corpus"));
    if (QFile::exists(corpus + QStringLiteral("/MANIFEST.tsv")))
        addRows(corpus, QStringLiteral("corpus/"));
    else
        qWarning("SKIP corpus rows: %s not found (only tests/data is checked)", qPrintable(corpus));
}

void tst_CorpusOracle::matchesGoToolPprof()
{
    QFETCH(QString, profile);
    QFETCH(int, sampleType);
    QFETCH(QString, oracle);

    if (sampleType < 0) {
        try {
            readPprofFile(profile);
        } catch (const ProfileError &e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QLatin1String("reserved id 0")), qPrintable(message));
            QVERIFY(!message.contains(QLatin1Char('\n')));
            ++m_rejected;
            return;
        }
        ++m_failed;
        QFAIL("go tool pprof rejects this profile, but it was read");
    }

    if (compare(profile, sampleType, Granularity::Functions, oracle))
        ++m_matched;
    else
        ++m_failed;
}

void tst_CorpusOracle::granularitiesMatchGoToolPprof_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("sampleType");
    QTest::addColumn<int>("granularity");
    QTest::addColumn<QString>("oracle");
    // FILE.TYPE.GRANULARITY.topall, written by tests/data/regen-granularity-oracle.sh.
    const QDir dir(QStringLiteral(QFLAME_TEST_DATA "/oracle"));
    int count = 0;
    for (const QString &name : dir.entryList({QStringLiteral("*.lines.topall"), QStringLiteral("*.addresses.topall")})) {
        QStringList parts = name.split(QLatin1Char('.'));
        parts.removeLast();
        const QString gran = parts.takeLast();
        const QString type = parts.takeLast();
        const QString file = parts.join(QLatin1Char('.'));
        QTest::newRow(qPrintable(name)) << QStringLiteral(QFLAME_TEST_DATA "/") + file << type
                                        << int(gran == QLatin1String("lines") ? Granularity::Lines : Granularity::Addresses)
                                        << dir.filePath(name);
        ++count;
    }
    QVERIFY(count >= 20);
}

void tst_CorpusOracle::granularitiesMatchGoToolPprof()
{
    QFETCH(QString, profile);
    QFETCH(QString, sampleType);
    QFETCH(int, granularity);
    QFETCH(QString, oracle);
    const int type = readPprofFile(profile)->findSampleType(sampleType.toStdString());
    QVERIFY(type >= 0);
    if (compare(profile, type, Granularity(granularity), oracle))
        ++m_matched;
    else
        ++m_failed;
}

bool tst_CorpusOracle::compare(const QString &profile, int sampleType, Granularity granularity, const QString &oracle)
{
    QFile oracleFile(oracle);
    CHECK2(oracleFile.open(QIODevice::ReadOnly), qPrintable(oracle));
    QString error;
    std::vector<OracleRow> expected = test::parseTopOracle(oracleFile.readAll(), &error);
    CHECK2(error.isEmpty(), qPrintable(error));

    std::shared_ptr<const Profile> p, withoutLabels;
    try {
        p = readPprofFile(profile);
        ReadOptions dropping;   // as `qflame top` reads when no filter looks at labels
        dropping.sampleLabels = false;
        withoutLabels = readPprofFile(profile, dropping);
    } catch (const ProfileError &e) {
        QTest::qFail(e.what(), __FILE__, __LINE__);
        return false;
    }
    CHECK(sampleType < int(p->sampleTypes.size()));
    BuildOptions options;
    options.granularity = granularity;
    // Both ways to the table: through the call tree (the window) and straight from the samples (qflame top).
    auto fromTree = FlatTable::compute(CallTreeBuilder::build({p}, size_t(sampleType), options));
    auto fromSamples = FlatTable::compute({p}, size_t(sampleType), options);
    auto fromSamplesWithoutLabels = FlatTable::compute({withoutLabels}, size_t(sampleType), options);
    std::sort(expected.begin(), expected.end());
    for (const auto &[table, path] : {std::pair{fromTree, "call tree"}, std::pair{fromSamples, "samples"},
                                      std::pair{fromSamplesWithoutLabels, "samples read without labels"}}) {
        std::vector<OracleRow> actual;
        for (const FlatRow &r : table->rows())
            actual.push_back(OracleRow{r.flat, r.cum, table->displayName(r)});
        std::sort(actual.begin(), actual.end());
        if (actual != expected) {
            std::vector<OracleRow> missing, extra;
            std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                                std::back_inserter(missing));
            std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                                std::back_inserter(extra));
            QString detail = QStringLiteral("from the %1: %2 rows expected, %3 computed; %4 differ. ")
                                 .arg(QLatin1String(path)).arg(expected.size()).arg(actual.size())
                                 .arg(missing.size() + extra.size());
            for (size_t i = 0; i < std::min<size_t>(missing.size(), 4); ++i)
                detail += QStringLiteral("\n  pprof: %1 %2 %3").arg(missing[i].flat).arg(missing[i].cum)
                              .arg(QString::fromStdString(missing[i].name));
            for (size_t i = 0; i < std::min<size_t>(extra.size(), 4); ++i)
                detail += QStringLiteral("\n  ours:  %1 %2 %3").arg(extra[i].flat).arg(extra[i].cum)
                              .arg(QString::fromStdString(extra[i].name));
            QTest::qFail(qPrintable(detail), __FILE__, __LINE__);
            return false;
        }
    }
    // The same order (ties broken alike) and the same totals.
    CHECK(fromTree->total() == fromSamples->total());
    CHECK(fromTree->tree().sampleCount() == fromSamples->tree().sampleCount());
    CHECK(fromTree->rows().size() == fromSamples->rows().size());
    for (size_t i = 0; i < fromTree->rows().size(); ++i)
        CHECK2(fromTree->displayName(fromTree->rows()[i]) == fromSamples->displayName(fromSamples->rows()[i]),
               qPrintable(QString::fromStdString(fromTree->displayName(fromTree->rows()[i]))));
    // In the documented order (flat descending, cum descending, label), whichever way the rows were sorted
    // (tables of 4,096 rows and more are sorted in two halves and merged).
    for (size_t i = 1; i < fromSamples->rows().size(); ++i) {
        const FlatRow &p = fromSamples->rows()[i - 1], &r = fromSamples->rows()[i];
        CHECK2(p.flat > r.flat || (p.flat == r.flat && (p.cum > r.cum || (p.cum == r.cum &&
                                                                          fromSamples->label(i - 1) <= fromSamples->label(i)))),
               qPrintable(QStringLiteral("row %1").arg(i)));
    }
    // The labels held beside the rows (what `qflame top` prints) are the frames' own.
    for (const auto &t : {fromTree, fromSamples})
        for (size_t i = 0; i < t->rows().size(); ++i)
            CHECK(t->label(i) == t->tree().frames().label(t->rows()[i].frame));
    return true;
}

void tst_CorpusOracle::cleanupTestCase()
{
    qInfo("oracle: %d file x sample type cases matched go tool pprof exactly, %d rejected like it, %d failed",
          m_matched, m_rejected, m_failed);
}

QTEST_GUILESS_MAIN(tst_CorpusOracle)
#include "tst_corpusoracle.moc"
