// pprof's sample filters (focus, ignore, hide, show, tagfocus, tagignore) and collapse recursion: every case of
// tests/data/oracle-filters/cases.tsv equals what go tool pprof -top printed for it, and the parts pprof does
// not print (the shape of the tree, errors, units) are checked against hand-computed values.
#include "formats/ProfileInput.h"
#include "OracleFile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/SampleFilter.h"

#include "profile.pb.h"
#include "SharedCorpus.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <map>

using namespace qflame;
using qflame::test::OracleRow;
namespace pb = perftools::profiles;

namespace {

const QString kCaseDir = QStringLiteral(QFLAME_TEST_DATA "/oracle-filters");

// Writes pprof profiles object by object: mappings, functions, locations with inline lines, labelled samples.
class Writer {
public:
    struct Label {
        std::string key, str;
        int64_t num = 0;
        std::string unit;
    };
    explicit Writer(std::vector<std::pair<std::string, std::string>> types)
    {
        s("");
        for (auto &[t, u] : types) {
            auto *vt = m_p.add_sample_type();
            vt->set_type(s(t));
            vt->set_unit(s(u));
        }
    }
    int64_t s(const std::string &str)
    {
        auto [it, inserted] = m_strings.try_emplace(str, m_p.string_table_size());
        if (inserted)
            m_p.add_string_table(str);
        return it->second;
    }
    uint64_t mapping(const std::string &file, const std::string &buildId)
    {
        auto *m = m_p.add_mapping();
        m->set_id(uint64_t(m_p.mapping_size()));
        m->set_memory_start(0x1000000 * m->id());
        m->set_memory_limit(0x1000000 * m->id() + 0xffffff);
        m->set_filename(s(file));
        m->set_build_id(s(buildId));
        return m->id();
    }
    uint64_t fn(const std::string &name, const std::string &file)
    {
        auto *f = m_p.add_function();
        f->set_id(uint64_t(m_p.function_size()));
        f->set_name(s(name));
        f->set_system_name(s(name));
        f->set_filename(s(file));
        return f->id();
    }
    // Lines innermost first: {function id, line}.
    uint64_t loc(uint64_t mapping, std::vector<std::pair<uint64_t, int64_t>> lines)
    {
        auto *l = m_p.add_location();
        l->set_id(uint64_t(m_p.location_size()));
        l->set_mapping_id(mapping);
        l->set_address(mapping ? 0x1000000 * mapping + 0x10 * l->id() : 0);
        for (auto [f, line] : lines) {
            auto *ln = l->add_line();
            ln->set_function_id(f);
            ln->set_line(line);
        }
        return l->id();
    }
    // Locations root first, as one reads a stack.
    void sample(std::vector<uint64_t> rootFirst, std::vector<int64_t> values, std::vector<Label> labels = {})
    {
        auto *smp = m_p.add_sample();
        for (auto it = rootFirst.rbegin(); it != rootFirst.rend(); ++it)
            smp->add_location_id(*it);
        for (int64_t v : values)
            smp->add_value(v);
        for (const Label &l : labels) {
            auto *lb = smp->add_label();
            lb->set_key(s(l.key));
            if (!l.str.empty())
                lb->set_str(s(l.str));
            lb->set_num(l.num);
            if (!l.unit.empty())
                lb->set_num_unit(s(l.unit));
        }
    }
    pb::Profile &proto() { return m_p; }

private:
    pb::Profile m_p;
    std::map<std::string, int64_t> m_strings;
};

// Every rule of FilterSamplesByName and compileTagFilter in one small profile: inline lines, address-only
// locations, a remote-source mapping, drop_frames, an empty stack, string labels with repeated keys, numeric
// labels with and without units, a zero label pprof does not even read.
pb::Profile madeFrames()
{
    Writer w({{"samples", "count"}, {"space", "bytes"}});
    const uint64_t app = w.mapping("/bin/app", "app1"), libc = w.mapping("/usr/lib/libc.so.6", "libc1"),
                   remote = w.mapping("https://example.com/remote.so", "");
    const uint64_t main = w.fn("main.main", "main.go"), work = w.fn("main.work", "main.go"),
                   inl = w.fn("lib.inl", "lib/inl.go"), helper = w.fn("lib.helper", "lib/helper.go"),
                   malloc = w.fn("runtime.mallocgc", "runtime/malloc.go"), walk = w.fn("rec.walk", "rec/walk.go"),
                   dropme = w.fn("lib.dropme", "lib/drop.go"), leaf = w.fn("x.leaf", "x/leaf.go"),
                   caller = w.fn("main.caller", "main.go");
    w.proto().set_drop_frames(w.s("lib\\.dropme"));
    const uint64_t lMain = w.loc(app, {{main, 10}});
    const uint64_t lInlWork = w.loc(app, {{inl, 5}, {work, 20}});   // lib.inl inlined into main.work
    const uint64_t lHelper = w.loc(app, {{helper, 7}});
    const uint64_t lMalloc = w.loc(app, {{malloc, 100}});
    const uint64_t lWalk = w.loc(app, {{walk, 3}});
    const uint64_t lLibcA = w.loc(libc, {}), lLibcB = w.loc(libc, {});
    const uint64_t lRemote = w.loc(remote, {});
    const uint64_t lDrop = w.loc(app, {{leaf, 1}, {dropme, 2}, {caller, 3}});   // pruned down to main.caller
    const uint64_t lHelperInl = w.loc(app, {{helper, 8}, {inl, 6}});              // lib.helper inlined into lib.inl
    const uint64_t lWork = w.loc(app, {{work, 21}});
    auto str = [](const char *key, const char *value) { return Writer::Label{key, value, 0, ""}; };
    auto num = [](const char *key, int64_t value, const char *unit = "") { return Writer::Label{key, "", value, unit}; };
    w.sample({lMain, lInlWork, lHelper}, {1, 100}, {str("path", "ingest"), str("user", "alice"), num("bytes", 1024)});
    w.sample({lMain, lInlWork, lMalloc, lLibcA}, {2, 2048},
             {str("path", "index"), num("bytes", 4096), num("lat", 5, "ms")});
    w.sample({lMain, lWork, lWalk, lWalk, lWalk}, {3, 10},
             {str("user", "bob"), str("path", "index"), str("path", "ingest"), num("nought", 0, "count")});
    w.sample({lMain, lHelperInl, lRemote}, {4, 64}, {num("objects", 7)});
    w.sample({lLibcA, lLibcB}, {5, 1});
    w.sample({lMain, lDrop, lHelper}, {6, 0}, {str("path", "ingest")});
    w.sample({}, {7, 7}, {str("path", "ingest")});
    w.sample({lMain, lWork, lHelper}, {8, 512}, {num("zero", 0), num("bytes", 512, "bytes")});
    return w.proto();
}

// Direct and indirect recursion, through real calls and through inlining, for collapse recursion.
pb::Profile madeRecursion()
{
    Writer w(std::vector<std::pair<std::string, std::string>>{{"samples", "count"}});
    const uint64_t app = w.mapping("/bin/rec", "rec1");
    const uint64_t main = w.fn("main", "main.go"), f = w.fn("f", "f.go"), g = w.fn("g", "g.go"),
                   h = w.fn("h", "h.go"), k = w.fn("k", "k.go");
    const uint64_t lMain = w.loc(app, {{main, 1}}), lF = w.loc(app, {{f, 1}}), lG = w.loc(app, {{g, 1}}),
                   lH = w.loc(app, {{h, 1}});
    const uint64_t lHH = w.loc(app, {{h, 2}, {h, 3}});   // h inlined into h
    const uint64_t lFK = w.loc(app, {{k, 4}, {f, 5}});   // k inlined into f
    w.sample({lMain, lF, lF, lF, lG}, {1});
    w.sample({lMain, lF, lG, lF}, {2});
    w.sample({lMain, lHH, lH}, {4});
    w.sample({lMain, lF, lF}, {8});
    w.sample({lF, lF}, {16});
    w.sample({lMain, lF, lFK}, {32});
    return w.proto();
}

const std::map<QString, pb::Profile (*)()> &handMade()
{
    static const std::map<QString, pb::Profile (*)()> files = {{QStringLiteral("made-frames.pb"), madeFrames},
                                                              {QStringLiteral("made-recursion.pb"), madeRecursion}};
    return files;
}

// A case of cases.tsv: name, files, then options; "--" options are qflame's own and not passed to pprof.
struct Case {
    QString name;
    QStringList files;
    int sampleIndex = -1;
    BuildOptions options;
};

bool parseCase(const QString &line, Case *c, QString *error)
{
    const QStringList cols = line.split(QLatin1Char('\t'));
    if (cols.size() < 2) {
        *error = QStringLiteral("too few columns");
        return false;
    }
    c->name = cols[0];
    for (const QString &f : cols[1].split(QLatin1Char(','))) {
        if (f.startsWith(QLatin1String("corpus/")))
            c->files << qflame::test::sharedPath(f);
        else if (f.startsWith(QLatin1String("data/")))
            c->files << QStringLiteral(QFLAME_TEST_DATA "/") + f.mid(5);
        else
            c->files << kCaseDir + QLatin1Char('/') + f;
    }
    SampleFilters &sf = c->options.filters;
    for (int i = 2; i < cols.size(); ++i) {
        const QString opt = cols[i].section(QLatin1Char('='), 0, 0);
        const std::string value = cols[i].section(QLatin1Char('='), 1).toStdString();
        if (opt == QLatin1String("-sample_index")) c->sampleIndex = std::stoi(value);
        else if (opt == QLatin1String("-focus")) sf.focus = value;
        else if (opt == QLatin1String("-ignore")) sf.ignore = value;
        else if (opt == QLatin1String("-hide")) sf.hide = value;
        else if (opt == QLatin1String("-show")) sf.show = value;
        else if (opt == QLatin1String("-tagfocus")) sf.tagFocus = value;
        else if (opt == QLatin1String("-tagignore")) sf.tagIgnore = value;
        else if (opt == QLatin1String("-lines")) c->options.granularity = Granularity::Lines;
        else if (opt == QLatin1String("-addresses")) c->options.granularity = Granularity::Addresses;
        else if (opt == QLatin1String("--collapse-recursion")) sf.collapseRecursion = true;
        else {
            *error = QStringLiteral("unknown option ") + cols[i];
            return false;
        }
    }
    return true;
}

std::vector<OracleRow> computedRows(const FlatTable &t)
{
    std::vector<OracleRow> rows;
    for (const FlatRow &r : t.rows())
        rows.push_back(OracleRow{r.flat, r.cum, t.displayName(r)});
    std::sort(rows.begin(), rows.end());
    return rows;
}

// "name flat cum" rows in table order, for compact hand-computed expectations.
QStringList rows(const FlatTable &t)
{
    QStringList out;
    for (const FlatRow &r : t.rows())
        out << QStringLiteral("%1 %2 %3").arg(QString::fromStdString(t.displayName(r))).arg(r.flat).arg(r.cum);
    return out;
}

std::shared_ptr<const Profile> made(pb::Profile (*make)())
{
    return readPprof(make().SerializeAsString(), "made");
}

std::shared_ptr<const CallTree> build(std::shared_ptr<const Profile> p, SampleFilters f, size_t type = 0)
{
    BuildOptions o;
    o.filters = std::move(f);
    return CallTreeBuilder::build({std::move(p)}, type, o);
}

// The paths of a tree as "a;b;c self" lines (nodes with self only), sorted: the shape, exactly.
QStringList paths(const CallTree &t)
{
    QStringList out;
    for (NodeId n = 1; n < t.size(); ++n) {
        if (t.self(n) == 0)
            continue;
        QStringList names;
        for (NodeId p : t.pathTo(n))
            names << QString::fromStdString(t.label(p));
        out << names.join(QLatin1Char(';')) + QLatin1Char(' ') + QString::number(t.self(n));
    }
    out.sort();
    return out;
}

}   // namespace

class tst_Filters : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void handMadeFilesAreCurrent();
    void matchesGoToolPprof_data();
    void matchesGoToolPprof();
    void collapseRecursionFoldsDirectSelfCalls();
    void filtersKeepTheTreeConsistent();
    void emptyStacksAndExtraSampleFilter();
    void badOptionsThrow_data();
    void badOptionsThrow();
    void noFilterBuildsTheSameTree();
    void mappingFilesThatAreUrls();
};

void tst_Filters::initTestCase()
{
    // The regen script writes the hand-made profiles through here, so they are exactly what this file describes.
    const QByteArray out = qgetenv("QFLAME_WRITE_FILTER_PROFILES");
    if (out.isEmpty())
        return;
    for (const auto &[name, make] : handMade()) {
        QFile f(QString::fromLocal8Bit(out) + QLatin1Char('/') + name);
        QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(f.fileName()));
        const std::string bytes = make().SerializeAsString();
        f.write(bytes.data(), qint64(bytes.size()));
    }
}

void tst_Filters::handMadeFilesAreCurrent()
{
    for (const auto &[name, make] : handMade()) {
        QFile f(kCaseDir + QLatin1Char('/') + name);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        pb::Profile committed;
        QVERIFY(committed.ParseFromString(f.readAll().toStdString()));
        QVERIFY2(committed.SerializeAsString() == make().SerializeAsString(),
                 qPrintable(name + QStringLiteral(" differs from the code that describes it: run regen.sh")));
    }
}

void tst_Filters::matchesGoToolPprof_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("oracle");
    QFile cases(kCaseDir + QStringLiteral("/cases.tsv"));
    QVERIFY(cases.open(QIODevice::ReadOnly));
    const bool haveCorpus = qflame::test::haveSharedCorpus();
    int count = 0, skipped = 0;
    while (!cases.atEnd()) {
        const QString line = QString::fromUtf8(cases.readLine()).chopped(1);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QString name = line.section(QLatin1Char('\t'), 0, 0);
        if (!haveCorpus && line.section(QLatin1Char('\t'), 1, 1).contains(QLatin1String("corpus/"))) {
            ++skipped;
            continue;
        }
        QTest::newRow(qPrintable(name)) << line << kCaseDir + QLatin1Char('/') + name + QStringLiteral(".top");
        ++count;
    }
    if (skipped)
        qWarning("SKIP %d corpus cases: %s not found", skipped, qPrintable(qflame::test::sharedPath(QStringLiteral("corpus"))));
    QVERIFY(count >= 40);
}

void tst_Filters::matchesGoToolPprof()
{
    QFETCH(QString, line);
    QFETCH(QString, oracle);
    Case c;
    QString error;
    QVERIFY2(parseCase(line, &c, &error), qPrintable(error));
    QFile oracleFile(oracle);
    QVERIFY2(oracleFile.open(QIODevice::ReadOnly), qPrintable(oracle));
    const QByteArray text = oracleFile.readAll();
    std::vector<OracleRow> expected = test::parseTopOracle(text, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    std::sort(expected.begin(), expected.end());

    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const QString &f : c.files)
        profiles.push_back(readPprofFile(f));
    const int type = c.sampleIndex >= 0 ? c.sampleIndex : profiles.front()->effectiveDefaultType();
    const auto table = FlatTable::compute(CallTreeBuilder::build(profiles, size_t(type), c.options));
    const std::vector<OracleRow> actual = computedRows(*table);
    // qflame top takes the rows straight from the samples: the same rows under every filter.
    QCOMPARE(computedRows(*FlatTable::compute(profiles, size_t(type), c.options)), actual);
    if (actual != expected) {
        QString detail = QStringLiteral("%1 rows expected, %2 computed").arg(expected.size()).arg(actual.size());
        for (const OracleRow &r : expected)
            if (!std::binary_search(actual.begin(), actual.end(), r))
                detail += QStringLiteral("\n  pprof: %1 %2 %3").arg(r.flat).arg(r.cum).arg(QString::fromStdString(r.name));
        for (const OracleRow &r : actual)
            if (!std::binary_search(expected.begin(), expected.end(), r))
                detail += QStringLiteral("\n  ours:  %1 %2 %3").arg(r.flat).arg(r.cum).arg(QString::fromStdString(r.name));
        QFAIL(qPrintable(detail));
    }
    // Rows alone would pass an empty table against an empty oracle: the oracle's "Showing nodes accounting
    // for X" is the sum of flat, which must be ours too.
    int64_t flatSum = 0;
    for (const OracleRow &r : actual)
        flatSum += r.flat;
    const qsizetype at = text.indexOf("Showing nodes accounting for ");
    if (at >= 0 && !expected.empty())
        QVERIFY(text.mid(at + 29).startsWith(QByteArray::number(flatSum)));
}

void tst_Filters::collapseRecursionFoldsDirectSelfCalls()
{
    const auto p = made(madeRecursion);
    QCOMPARE(paths(*build(p, {})),
             QStringList({"f;f 16", "main;f;f 8", "main;f;f;f;g 1", "main;f;f;k 32", "main;f;g;f 2", "main;h;h;h 4"}));
    SampleFilters collapse;
    collapse.collapseRecursion = true;
    const auto folded = build(p, collapse);
    // f;f -> f, f;f;f;g -> f;g, h;h;h (two of them inlined) -> h, f;f;k (f inlined... k inlined into f) -> f;k;
    // f;g;f stays: only direct self-calls fold.
    QCOMPARE(paths(*folded), QStringList({"f 16", "main;f 8", "main;f;g 1", "main;f;g;f 2", "main;f;k 32", "main;h 4"}));
    QCOMPARE(folded->total(CallTree::kRoot), int64_t(63));
    QCOMPARE(folded->maxDepth(), 4u);
    // Flat and cum per function do not change, nor do pprof's inline markers.
    QCOMPARE(rows(*FlatTable::compute(folded)), rows(*FlatTable::compute(build(p, {}))));
    QCOMPARE(rows(*FlatTable::compute(folded)),
             QStringList({"k (inline) 32 32", "f 26 59", "h 4 4", "g 1 3", "main 0 47"}));
    // The folded h node was entered by a real call; the inlined repeats leave no trace on it.
    const CallTree &t = *folded;
    for (NodeId n = 1; n < t.size(); ++n)
        if (t.label(n) == "h")
            QCOMPARE(int(t.callKinds(n)), int(CallTree::kCalled));
}

void tst_Filters::filtersKeepTheTreeConsistent()
{
    // hide removes lines inside locations: lib.inl inlined into main.work disappears, and lib.helper, inlined into
    // lib.inl, becomes the outermost line of its location: a real call from main.main.
    SampleFilters hide;
    hide.hide = "lib\\.inl";
    const auto tree = build(made(madeFrames), hide);
    QCOMPARE(paths(*tree), QStringList({"[libc.so.6];[libc.so.6] 5", "main.main;lib.helper;<unknown> 4",
                                        "main.main;main.caller 6", "main.main;main.work;lib.helper 9",
                                        "main.main;main.work;rec.walk;rec.walk;rec.walk 3",
                                        "main.main;main.work;runtime.mallocgc;[libc.so.6] 2"}));
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(29));   // the empty stack (7) is dropped, as pprof drops it
    for (NodeId n = 1; n < tree->size(); ++n) {
        QCOMPARE(tree->total(n), tree->self(n) + [&] {
            int64_t sum = 0;
            for (NodeId c = tree->firstChild(n); c < tree->firstChild(n) + tree->childCount(n); ++c)
                sum += tree->total(c);
            return sum;
        }());
        QCOMPARE(int(tree->callKinds(n)), int(CallTree::kCalled));   // nothing inlined is left
    }
}

void tst_Filters::emptyStacksAndExtraSampleFilter()
{
    const auto p = made(madeFrames);
    // Without a frame filter the empty stack stays at the root, as in pprof's total; tag filters keep it too.
    QCOMPARE(build(p, {})->self(CallTree::kRoot), int64_t(7));
    SampleFilters tags;
    tags.tagFocus = "path=ingest";
    const auto tagged = build(p, tags);
    QCOMPARE(tagged->self(CallTree::kRoot), int64_t(7));
    QCOMPARE(tagged->total(CallTree::kRoot), int64_t(1 + 3 + 6 + 7));
    // The caller's own predicate applies on top of the filters.
    BuildOptions o;
    o.filters = tags;
    o.sampleFilter = [](const Profile &prof, size_t s) { return prof.value(s, 0) != 6; };
    QCOMPARE(CallTreeBuilder::build({p}, 0, o)->total(CallTree::kRoot), int64_t(1 + 3 + 7));
}

void tst_Filters::badOptionsThrow_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("focus") << "focus" << "main(" << "parsing focus regexp: missing closing parenthesis at offset 5";
    QTest::newRow("hide") << "hide" << "[a" << "parsing hide regexp: missing terminating ] for character class at offset 2";
    QTest::newRow("tagfocus regex") << "tagfocus" << "path=ok,(" << "parsing tagfocus regexp: missing closing parenthesis at offset 1";
    QTest::newRow("tagignore overflow") << "tagignore" << "bytes=99999999999999999999:"
                                        << "tagignore: the number 99999999999999999999 is out of range";
}

void tst_Filters::badOptionsThrow()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    SampleFilters f;
    std::string *slot = field == QLatin1String("focus") ? &f.focus
                        : field == QLatin1String("hide") ? &f.hide
                        : field == QLatin1String("tagfocus") ? &f.tagFocus : &f.tagIgnore;
    *slot = value.toStdString();
    try {
        build(made(madeFrames), f);
        QFAIL("built with a bad option");
    } catch (const FilterError &e) {
        QCOMPARE(QString::fromStdString(e.what()), message);
    }
}

void tst_Filters::noFilterBuildsTheSameTree()
{
    // Filters that keep everything leave the tree node for node as the unfiltered build makes it.
    const auto p = made(madeFrames);
    const auto plain = build(p, {});
    SampleFilters all;
    all.tagIgnore = "nosuchkey=x";
    const auto filtered = build(p, all);
    QCOMPARE(filtered->size(), plain->size());
    for (NodeId n = 0; n < plain->size(); ++n) {
        QCOMPARE(filtered->frame(n), plain->frame(n));
        QCOMPARE(filtered->total(n), plain->total(n));
        QCOMPARE(filtered->parent(n), plain->parent(n));
    }
}

void tst_Filters::mappingFilesThatAreUrls()
{
    // url.Parse(file).IsAbs(): a mapping without a build id whose file starts with a scheme
    // ([A-Za-z][A-Za-z0-9+.-]*:) is matched by focus and ignore as "".
    const std::vector<std::pair<std::string, bool>> files = {
        {"https://example.com/remote.so", true}, {"a+b.c-d:x", true}, {"z:", true}, {"/usr/bin/app", false},
        {"1abc:x", false}, {"ab", false}, {"a_b:x", false}, {"", false}, {"C:\\app.exe", true}};
    Writer w(std::vector<std::pair<std::string, std::string>>{{"samples", "count"}});
    for (const auto &[file, url] : files)
        w.mapping(file, "");
    w.mapping("https://example.com/with-id.so", "id1");
    const auto p = readPprof(w.proto().SerializeAsString(), "made");
    QCOMPARE(p->mappings.size(), files.size() + 1);
    for (size_t m = 0; m < files.size(); ++m)
        QVERIFY2(filterMappingFile(*p, uint32_t(m)) == (files[m].second ? "" : files[m].first), files[m].first.c_str());
    QCOMPARE(std::string(filterMappingFile(*p, uint32_t(files.size()))), std::string("https://example.com/with-id.so"));
}

QTEST_GUILESS_MAIN(tst_Filters)
#include "tst_filters.moc"
