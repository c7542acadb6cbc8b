// Label values as frames (--tagroot / --tagleaf, tree/LabelFrames.h) and the bottom-up tree
// (SampleFilters::inverted): hand-built profiles with their values worked out here, then the corpus files with
// labels against go tool pprof -tagroot / -tagleaf, and every corpus file's inverted roots against top's flat.
#include "GoToolchain.h"
#include "OracleFile.h"
#include "TreePaths.h"
#include "diff/DiffTable.h"
#include "formats/ProfileInput.h"
#include "pprof/LabelSets.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/LabelFrames.h"
#include "tree/Sandwich.h"
#include "tree/StagedTree.h"
#include "SharedCorpus.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <map>
#include <set>

using namespace qflame;
using qflame::test::OracleRow;
using qflame::test::TreePaths;
using qflame::pgotest::goBinary;

namespace {

// A profile put together by hand: functions by name, locations of one or more lines (innermost first, as
// pprof stores inlining), samples leaf first with their labels.
class HandProfile {
public:
    HandProfile()
    {
        m_p.strings.push_back("");
        m_p.sampleTypes.push_back({str("samples"), str("count")});
        m_p.sampleLocBegin.push_back(0);
    }
    // A location whose lines are `functions`, innermost (inlined) first.
    uint32_t location(std::initializer_list<const char *> functions)
    {
        Location loc;
        loc.id = m_p.locations.size() + 1;
        loc.firstLine = uint32_t(m_p.lines.size());
        for (const char *name : functions) {
            Line line;
            line.function = function(name);
            m_p.lines.push_back(line);
            ++loc.lineCount;
        }
        m_p.locations.push_back(loc);
        return uint32_t(m_p.locations.size() - 1);
    }
    struct L {
        const char *key;
        const char *str = nullptr;
        int64_t num = 0;
        const char *unit = nullptr;
    };
    void sample(std::initializer_list<uint32_t> leafFirst, int64_t value, std::initializer_list<L> labels = {})
    {
        m_p.sampleLocations.append(leafFirst.begin(), leafFirst.end());
        m_p.sampleLocBegin.push_back(locationPosition(m_p.sampleLocations.size()));
        m_p.values.push_back(value);
        const size_t from = m_p.labels.size();
        for (const L &l : labels)
            m_p.labels.push_back({str(l.key), l.str ? str(l.str) : 0, l.num, l.unit ? str(l.unit) : 0});
        m_labelSets.setSampleSet(m_p.sampleCount() - 1, m_labelSets.closeAppended(from));
    }
    std::shared_ptr<const Profile> profile() const { return std::make_shared<Profile>(m_p); }

private:
    uint32_t str(const std::string &s)
    {
        for (uint32_t i = 0; i < m_p.strings.size(); ++i)
            if (m_p.strings[i] == s)
                return i;
        m_p.strings.push_back(s);
        return uint32_t(m_p.strings.size() - 1);
    }
    uint32_t function(const char *name)
    {
        const uint32_t s = str(name);
        for (uint32_t i = 0; i < m_p.functions.size(); ++i)
            if (m_p.functions[i].name == s)
                return i;
        Function f;
        f.id = m_p.functions.size() + 1;
        f.name = s;
        m_p.functions.push_back(f);
        return uint32_t(m_p.functions.size() - 1);
    }
    Profile m_p;
    LabelSetTable m_labelSets{m_p};
};

// name -> (flat, cum) of a table.
std::map<std::string, std::pair<int64_t, int64_t>> flatCum(const FlatTable &t)
{
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    for (const FlatRow &r : t.rows())
        out[t.displayName(r)] = {r.flat, r.cum};
    return out;
}

// Four samples of main, a and b with string labels `path` (one with two values, one without) and numeric labels
// `bytes` (one with the unit bytes, one without a unit).
std::shared_ptr<const Profile> labelled()
{
    HandProfile h;
    const uint32_t main = h.location({"main"}), a = h.location({"a"}), b = h.location({"b"});
    h.sample({b, a, main}, 10, {{"path", "x"}, {"bytes", nullptr, 1536, "bytes"}});
    h.sample({a, main}, 5, {{"path", "y"}, {"path", "z"}});
    h.sample({b, main}, 7);
    h.sample({main}, 1, {{"bytes", nullptr, 2048}, {"path", "x"}});
    return h.profile();
}

}   // namespace

class tst_LabelFrames : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void frameNames();
    void tagRootTable();
    void tagRootTree();
    void tagLeafTree();
    void invertedHandBuilt();
    void invertedDiffTable();
    void invertedTableMarksInlining();
    void corpusMatchesGoToolPprof_data();
    void corpusMatchesGoToolPprof();
    void commandLine();
    void sandwichBottomUp();
    void corpusInvertedRootsAreFlat_data();
    void corpusInvertedRootsAreFlat();
};

void tst_LabelFrames::frameNames()
{
    const auto p = labelled();
    // Strings first, numbers after, as pprof's formatLabelValues; a unit of bytes scales, no unit does not.
    QCOMPARE(labelFrameName(*p, 0, "path"), std::string("x"));
    QCOMPARE(labelFrameName(*p, 0, "bytes"), std::string("1.50kB"));
    QCOMPARE(labelFrameName(*p, 1, "path"), std::string("y,z"));
    QCOMPARE(labelFrameName(*p, 2, "path"), std::string());
    QCOMPARE(labelFrameName(*p, 3, "bytes"), std::string("2048"));
    QCOMPARE(labelKeyList(",path,,bytes,"), (std::vector<std::string>{"path", "bytes"}));
}

void tst_LabelFrames::tagRootTable()
{
    BuildOptions o;
    o.filters.tagRoot = "path,bytes";
    const auto t = FlatTable::compute({labelled()}, 0, o);
    // Worked out: s0 x;1.50kB;main;a;b 10, s1 y,z;<unknown>;main;a 5, s2 <unknown>;<unknown>;main;b 7,
    // s3 x;2048;main 1 (a missing label is a nameless frame, "<unknown>" as pprof prints it).
    const std::map<std::string, std::pair<int64_t, int64_t>> expected{
        {"main", {1, 23}}, {"a", {5, 15}}, {"b", {17, 17}}, {"x", {0, 11}}, {"y,z", {0, 5}},
        {"1.50kB", {0, 10}}, {"2048", {0, 1}}, {"<unknown>", {0, 12}}};
    QCOMPARE(flatCum(*t), expected);
    QCOMPARE(t->total(), int64_t(23));
    // The tree's table is the same.
    QCOMPARE(flatCum(*FlatTable::compute(CallTreeBuilder::build({labelled()}, 0, o))), expected);
}

void tst_LabelFrames::tagRootTree()
{
    BuildOptions o;
    o.filters.tagRoot = "path,bytes";   // the first key outermost
    const TreePaths paths = test::treePaths(*CallTreeBuilder::build({labelled()}, 0, o));
    const TreePaths expected{
        {"<root>", {23, 0}},
        {"x", {11, 0}}, {"x\n1.50kB", {10, 0}}, {"x\n1.50kB\nmain", {10, 0}}, {"x\n1.50kB\nmain\na", {10, 0}},
        {"x\n1.50kB\nmain\na\nb", {10, 10}}, {"x\n2048", {1, 0}}, {"x\n2048\nmain", {1, 1}},
        {"y,z", {5, 0}}, {"y,z\n<unknown>", {5, 0}}, {"y,z\n<unknown>\nmain", {5, 0}},
        {"y,z\n<unknown>\nmain\na", {5, 5}},
        {"<unknown>", {7, 0}}, {"<unknown>\n<unknown>", {7, 0}}, {"<unknown>\n<unknown>\nmain", {7, 0}},
        {"<unknown>\n<unknown>\nmain\nb", {7, 7}}};
    QVERIFY2(paths == expected, qPrintable(test::firstDifference(expected, paths)));
}

void tst_LabelFrames::tagLeafTree()
{
    BuildOptions o;
    o.filters.tagLeaf = "path,bytes";   // the last key innermost
    const TreePaths paths = test::treePaths(*CallTreeBuilder::build({labelled()}, 0, o));
    const TreePaths expected{
        {"<root>", {23, 0}}, {"main", {23, 0}}, {"main\na", {15, 0}}, {"main\na\nb", {10, 0}},
        {"main\na\nb\nx", {10, 0}}, {"main\na\nb\nx\n1.50kB", {10, 10}}, {"main\na\ny,z", {5, 0}},
        {"main\na\ny,z\n<unknown>", {5, 5}}, {"main\nb", {7, 0}}, {"main\nb\n<unknown>", {7, 0}},
        {"main\nb\n<unknown>\n<unknown>", {7, 7}}, {"main\nx", {1, 0}}, {"main\nx\n2048", {1, 1}}};
    QVERIFY2(paths == expected, qPrintable(test::firstDifference(expected, paths)));
    const auto t = FlatTable::compute({labelled()}, 0, o);
    QCOMPARE(flatCum(*t).at("1.50kB"), std::make_pair(int64_t(10), int64_t(10)));
    QCOMPARE(flatCum(*t).at("<unknown>"), std::make_pair(int64_t(12), int64_t(12)));
    QCOMPARE(flatCum(*t).at("main"), std::make_pair(int64_t(0), int64_t(23)));
}

namespace {

// main calls f, f calls itself, f calls g, into which h is inlined (one location of two lines).
std::shared_ptr<const Profile> recursiveInlined()
{
    HandProfile h;
    const uint32_t main = h.location({"main"}), f = h.location({"f"}), gh = h.location({"h", "g"});
    h.sample({gh, f, f, main}, 4);   // main;f;f;g;h
    h.sample({f, main}, 3);          // main;f
    h.sample({gh, main}, 2);         // main;g;h
    return h.profile();
}

}   // namespace

void tst_LabelFrames::invertedHandBuilt()
{
    for (const bool staged : {false, true}) {
        BuildOptions o;
        o.filters.inverted = true;
        // The first look (the window's staged build) walks the same reversed stacks.
        std::shared_ptr<const CallTree> tree;
        if (staged) {
            StagedTreeBuild build({recursiveInlined()}, 0, o, 1 << 20);
            tree = build.firstLook();
            tree = build.complete();
        } else {
            tree = CallTreeBuilder::build({recursiveInlined()}, 0, o);
        }
        QVERIFY(tree->isInverted());
        const TreePaths paths = test::treePaths(*tree);
        // Leaf first: h;g;f;f;main 4, f;main 3, h;g;main 2.
        const TreePaths expected{{"<root>", {9, 0}},        {"h", {6, 0}},          {"h\ng", {6, 0}},
                                 {"h\ng\nf", {4, 0}},       {"h\ng\nf\nf", {4, 0}}, {"h\ng\nf\nf\nmain", {4, 4}},
                                 {"h\ng\nmain", {2, 2}},    {"f", {3, 0}},          {"f\nmain", {3, 3}}};
        QVERIFY2(paths == expected, qPrintable(test::firstDifference(expected, paths)));
        // Flat and cum are the tree's whichever way up; each root is its function's flat. h is inlined into g
        // at every occurrence: pprof's marker, from the call edges the bottom-up build keeps.
        const auto flat = flatCum(*FlatTable::compute(tree));
        QCOMPARE(flat.at("h (inline)"), std::make_pair(int64_t(6), int64_t(6)));
        QCOMPARE(flat.at("f"), std::make_pair(int64_t(3), int64_t(7)));
        QCOMPARE(flat.at("g"), std::make_pair(int64_t(0), int64_t(6)));
        QCOMPARE(flat.at("main"), std::make_pair(int64_t(0), int64_t(9)));
    }
    BuildOptions collapsed;
    collapsed.filters.inverted = true;
    collapsed.filters.collapseRecursion = true;
    const TreePaths paths = test::treePaths(*CallTreeBuilder::build({recursiveInlined()}, 0, collapsed));
    QCOMPARE(paths.at("h\ng\nf\nmain"), std::make_pair(int64_t(4), int64_t(4)));
    QVERIFY(!paths.count("h\ng\nf\nf"));
    // Label frames and bottom-up together: the leaf label is the root.
    BuildOptions both;
    both.filters.inverted = true;
    both.filters.tagLeaf = "path";
    const TreePaths labelled = test::treePaths(*CallTreeBuilder::build({::labelled()}, 0, both));
    QCOMPARE(labelled.at("x"), std::make_pair(int64_t(11), int64_t(0)));
    QCOMPARE(labelled.at("x\nb\na\nmain"), std::make_pair(int64_t(10), int64_t(10)));
    QCOMPARE(labelled.at("<unknown>\nb\nmain"), std::make_pair(int64_t(7), int64_t(7)));
}

void tst_LabelFrames::invertedDiffTable()
{
    // A comparison bottom-up has the same per-function numbers as top-down.
    HandProfile h;
    const uint32_t main = h.location({"main"}), f = h.location({"f"}), gh = h.location({"h", "g"});
    h.sample({gh, f, main}, 9);
    h.sample({f, main}, 1);
    h.sample({main}, 2);
    BuildOptions up, down;
    up.filters.inverted = true;
    auto table = [&](const BuildOptions &o) {
        const DiffSide a = DiffSide::fromProfiles({recursiveInlined()}, 0, o);
        const DiffSide b = DiffSide::fromProfiles({h.profile()}, a.tree->sampleType(), o);
        return DiffTable::compute(DiffTree::build(a, b, {}));
    };
    const auto t1 = table(down), t2 = table(up);
    QVERIFY(t2->tree().isInverted());
    std::map<std::string, std::array<int64_t, 4>> rows1, rows2;
    for (const DiffRow &r : t1->rows())
        rows1[t1->tree().frames().label(r.frame)] = {r.beforeFlatRaw, r.afterFlatRaw, r.beforeCumRaw, r.afterCumRaw};
    for (const DiffRow &r : t2->rows())
        rows2[t2->tree().frames().label(r.frame)] = {r.beforeFlatRaw, r.afterFlatRaw, r.beforeCumRaw, r.afterCumRaw};
    // By frame label: the inline markers come from call edges, which a bottom-up tree does not keep.
    QCOMPARE(rows2, rows1);
    QCOMPARE(rows2.at("h"), (std::array<int64_t, 4>{6, 9, 6, 9}));
    QCOMPARE(rows2.at("main"), (std::array<int64_t, 4>{0, 2, 9, 12}));
}

void tst_LabelFrames::invertedTableMarksInlining()
{
    // h is inlined into g at every occurrence in recursiveInlined(): "h (inline)". In `partly`, the edge g -> h is
    // inlined once and a real call once (so it is a call), and x -> h is inlined only: "h (partial-inline)".
    HandProfile h;
    const uint32_t main = h.location({"main"}), f = h.location({"f"}), gh = h.location({"h", "g"}),
                   hx = h.location({"h", "x"}), h1 = h.location({"h"}), g1 = h.location({"g"});
    h.sample({gh, f, main}, 4);
    h.sample({hx, main}, 2);
    h.sample({h1, g1, main}, 1);
    const std::shared_ptr<const Profile> partly = h.profile();
    // Merged: g -> h inlined in the first profile only, a call in the second, so a call; h is not marked although
    // the second profile alone never reaches it inlined.
    HandProfile inl, call;
    inl.sample({inl.location({"h", "g"}), inl.location({"main"})}, 3);
    const uint32_t callMain = call.location({"main"}), callG = call.location({"g"}), callH = call.location({"h"});
    call.sample({callH, callG, callMain}, 5);
    using Profiles = std::vector<std::shared_ptr<const Profile>>;
    const Profiles inputs[] = {{recursiveInlined()}, {partly}, {inl.profile(), call.profile()}};
    const std::set<std::string> expected[] = {{"main", "f", "g", "h (inline)"},
                                              {"main", "f", "g", "x", "h (partial-inline)"},
                                              {"main", "g", "h"}};
    auto names = [](const FlatTable &t) {
        std::set<std::string> out;
        for (const FlatRow &r : t.rows())
            out.insert(t.displayName(r));
        return out;
    };
    auto marks = [](const DiffTable &t) {
        std::map<std::string, int> out;
        for (const DiffRow &r : t.rows())
            out[t.tree().frames().label(r.frame)] = int(r.inlined);
        return out;
    };
    for (size_t i = 0; i < std::size(inputs); ++i) {
        BuildOptions down, up;
        up.filters.inverted = true;
        QCOMPARE(names(*FlatTable::compute(inputs[i], 0, down)), expected[i]);   // `qflame top`
        QCOMPARE(names(*FlatTable::compute(CallTreeBuilder::build(inputs[i], 0, down))), expected[i]);
        // Bottom-up, in one build and in the window's staged one.
        QCOMPARE(names(*FlatTable::compute(CallTreeBuilder::build(inputs[i], 0, up))), expected[i]);
        StagedTreeBuild staged(inputs[i], 0, up, 1 << 20);
        QCOMPARE(names(*FlatTable::compute(staged.firstLook())), expected[i]);
        QCOMPARE(names(*FlatTable::compute(staged.complete())), expected[i]);
        // A comparison marks the union of both sides' edges, either way up.
        const Profiles other = inputs[(i + 1) % std::size(inputs)];
        auto diffMarks = [&](const BuildOptions &o) {
            return marks(*DiffTable::compute(DiffTree::build(DiffSide::fromProfiles(inputs[i], 0, o),
                                                             DiffSide::fromProfiles(other, 0, o), {})));
        };
        QCOMPARE(diffMarks(up), diffMarks(down));
    }
    // recursiveInlined() against partly: h is reached inlined from g on both, and from x (inlined) and g (called)
    // in partly: g -> h is a call in the union, x -> h inlined only.
    BuildOptions up;
    up.filters.inverted = true;
    const auto both = DiffTable::compute(DiffTree::build(DiffSide::fromProfiles(inputs[0], 0, up),
                                                         DiffSide::fromProfiles(inputs[1], 0, up), {}));
    QCOMPARE(marks(*both).at("h"), int(FlatRow::Inline::Partly));
    QCOMPARE(marks(*both).at("g"), int(FlatRow::Inline::No));
}

namespace {

struct CorpusFile {
    QString path;
    QString keys;   // comma-separated label keys
};

std::vector<CorpusFile> labelledCorpus(qint64 maxBytes)
{
    std::vector<CorpusFile> out;
    const QString dir = qflame::test::sharedPath(QStringLiteral("corpus"));
    QFile manifest(dir + QStringLiteral("/MANIFEST.tsv"));
    if (!manifest.open(QIODevice::ReadOnly))
        return out;
    const QStringList header = QString::fromUtf8(manifest.readLine()).trimmed().split(QLatin1Char('\t'));
    const int colFile = int(header.indexOf(QStringLiteral("file"))), colKeys = int(header.indexOf(QStringLiteral("label_keys"))),
              colVerdict = int(header.indexOf(QStringLiteral("go_tool_pprof")));
    while (!manifest.atEnd()) {
        const QStringList cols = QString::fromUtf8(manifest.readLine()).chopped(1).split(QLatin1Char('\t'));
        if (cols.size() <= std::max(colKeys, colVerdict) || cols[colVerdict] != QLatin1String("ok"))
            continue;
        const QString path = dir + QLatin1Char('/') + cols[colFile];
        if (QFileInfo(path).size() > maxBytes)
            continue;
        out.push_back({path, QString(cols[colKeys]).remove(QStringLiteral("(num)"))});
    }
    return out;
}

}   // namespace

void tst_LabelFrames::corpusMatchesGoToolPprof_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("keys");
    // Every labelled corpus file under 3 MB (the two largest allocation profiles take go tool pprof half a
    // minute each): all its keys at the root, and at the leaf with a key no sample has.
    for (const CorpusFile &f : labelledCorpus(3 << 20)) {
        if (!f.keys.isEmpty() && !f.path.endsWith(QLatin1String(".zst"))) {   // go tool pprof 1.19 reads no zstd
            const QString name = QFileInfo(f.path).fileName();
            QTest::newRow(qPrintable(name + QStringLiteral(" tagroot"))) << f.path << QStringLiteral("tagroot") << f.keys;
            QTest::newRow(qPrintable(name + QStringLiteral(" tagleaf")))
                << f.path << QStringLiteral("tagleaf") << f.keys + QStringLiteral(",no_such_key");
        }
    }
}

void tst_LabelFrames::corpusMatchesGoToolPprof()
{
    // Without the corpus there are no rows, and QtTest runs the function once without data: skip before QFETCH.
    QFLAME_SKIP_WITHOUT_SHARED(qflame::test::sharedPath(QStringLiteral("corpus/MANIFEST.tsv")));
    QFETCH(QString, path);
    QFETCH(QString, option);
    QFETCH(QString, keys);
    REQUIRE_GO(go);
    QTemporaryDir work;
    QVERIFY(work.isValid());
    const auto profile = readProfileFile(path);
    const int type = profile->effectiveDefaultType();
    QVERIFY(type >= 0);
    // go tool pprof's -top prints rounded values: it writes the profile with its label frames (-proto applies
    // -tagroot/-tagleaf with the default -unit, as -top does), then prints that profile's -top in the sample
    // type's own unit, every value an exact integer.
    const QString labelled = work.path() + QStringLiteral("/labelled.pb.gz");
    const auto first = pgotest::runGo(go, {QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-symbolize=none"),
                                           QStringLiteral("-%1=%2").arg(option, keys), QStringLiteral("-proto"),
                                           QStringLiteral("-output=") + labelled, path},
                                      work.path());
    QVERIFY2(first.code == 0, first.err.constData());
    const auto top = pgotest::runGo(
        go, {QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-symbolize=none"), QStringLiteral("-top"),
             QStringLiteral("-nodecount=1000000"), QStringLiteral("-nodefraction=0"), QStringLiteral("-edgefraction=0"),
             QStringLiteral("-sample_index=%1").arg(type),
             QStringLiteral("-unit=") + QString::fromStdString(profile->unitName(size_t(type))), labelled},
        work.path());
    QVERIFY2(top.code == 0, top.err.constData());
    QString error;
    std::vector<OracleRow> expected = test::parseTopOracle(top.out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    BuildOptions o;
    (option == QLatin1String("tagroot") ? o.filters.tagRoot : o.filters.tagLeaf) = keys.toStdString();
    const auto table = FlatTable::compute({profile}, size_t(type), o);
    std::vector<OracleRow> actual;
    for (const FlatRow &r : table->rows())
        actual.push_back({r.flat, r.cum, table->displayName(r)});
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i)
        QVERIFY2(actual[i] == expected[i],
                 qPrintable(QStringLiteral("row %1: ours %2 %3 %4, pprof's %5 %6 %7")
                                .arg(i)
                                .arg(actual[i].flat)
                                .arg(actual[i].cum)
                                .arg(QString::fromStdString(actual[i].name))
                                .arg(expected[i].flat)
                                .arg(expected[i].cum)
                                .arg(QString::fromStdString(expected[i].name))));
    QCOMPARE(actual.size(), expected.size());
}

// A frame's sandwich from the bottom-up tree is the one from the top-down tree: recursion (f calls f), an inline
// frame (h in g), and the real CPU profile's 25 functions of largest cum.
void tst_LabelFrames::sandwichBottomUp()
{
    const auto cpu = readProfileFile(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"));
    for (const auto &profile : {recursiveInlined(), cpu}) {
        BuildOptions o;
        const auto down = CallTreeBuilder::build({profile}, size_t(profile->effectiveDefaultType()), o);
        o.filters.inverted = true;
        const auto up = CallTreeBuilder::build({profile}, size_t(profile->effectiveDefaultType()), o);
        std::vector<FlatRow> rows = FlatTable::compute(down)->rows();
        std::sort(rows.begin(), rows.end(), [](const FlatRow &a, const FlatRow &b) { return a.cum > b.cum; });
        rows.resize(std::min<size_t>(rows.size(), 25));
        for (const FlatRow &r : rows) {
            const std::string name = down->frames().label(r.frame);
            FrameId inUp = 0;
            for (FrameId f = 1; f < up->frames().size(); ++f)
                if (up->frames().label(f) == name)
                    inUp = f;
            QVERIFY(inUp != 0);
            const Sandwich a = SandwichBuilder::build(*down, r.frame), b = SandwichBuilder::build(*up, inUp);
            const TreePaths callersDown = test::treePaths(*a.callers), callersUp = test::treePaths(*b.callers);
            const TreePaths calleesDown = test::treePaths(*a.callees), calleesUp = test::treePaths(*b.callees);
            QVERIFY2(callersUp == callersDown, qPrintable(QString::fromStdString(name) + QStringLiteral(" callers: ") +
                                                          test::firstDifference(callersDown, callersUp)));
            QVERIFY2(calleesUp == calleesDown, qPrintable(QString::fromStdString(name) + QStringLiteral(" callees: ") +
                                                          test::firstDifference(calleesDown, calleesUp)));
        }
    }
}

// The verbs print the model's numbers: top --tsv --tagroot/--tagleaf as the table above, diff --inverted as the
// top-down diff, convert --to pprof --tagroot as a profile with the label locations; a key is needed.
void tst_LabelFrames::commandLine()
{
    const QString cpu = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    const QString other = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");
    QTemporaryDir dir;
    auto run = [](const QStringList &args) { return pgotest::runQflame(args); };
    BuildOptions o;
    o.filters.tagLeaf = "path";
    const auto table = FlatTable::compute({readProfileFile(cpu)}, 1, o);
    QByteArray expected;
    for (const FlatRow &r : table->rows())
        expected += QByteArray::number(qlonglong(r.flat)) + '\t' + QByteArray::number(qlonglong(r.cum)) + '\t' +
                    QByteArray::fromStdString(table->displayName(r)) + '\n';
    const auto top = run({QStringLiteral("top"), cpu, QStringLiteral("--tsv"), QStringLiteral("--tagleaf=path")});
    QCOMPARE(top.code, 0);
    QCOMPARE(top.out, expected);
    QVERIFY(top.out.contains("\tanalytics\n"));
    const auto up = run({QStringLiteral("diff"), cpu, other, QStringLiteral("--tsv"), QStringLiteral("--inverted")});
    const auto down = run({QStringLiteral("diff"), cpu, other, QStringLiteral("--tsv")});
    QCOMPARE(up.code, 0);
    QCOMPARE(up.out.split('\n').size(), down.out.split('\n').size());
    QVERIFY(up.out.startsWith(down.out.split('\n').front()));   // the largest change: main.checksumBlock, equal
    const QString out = dir.filePath(QStringLiteral("labelled.pb.gz"));
    QCOMPARE(run({QStringLiteral("convert"), cpu, QStringLiteral("--to"), QStringLiteral("pprof"), QStringLiteral("--tagroot"),
                  QStringLiteral("path"), QStringLiteral("-o"), out})
                 .code,
             0);
    const auto back = run({QStringLiteral("top"), out, QStringLiteral("--tsv")});
    const auto direct = run({QStringLiteral("top"), cpu, QStringLiteral("--tsv"), QStringLiteral("--tagroot=path")});
    QCOMPARE(back.out, direct.out);
    // graph --tagleaf: the label frames are nodes of the call graph with top's flat and cum (unpruned, every
    // function's node holds its top row's values).
    const auto graph = run({QStringLiteral("graph"), cpu, QStringLiteral("--tsv"), QStringLiteral("--tagleaf=path"),
                            QStringLiteral("--nodecount=0"), QStringLiteral("--nodefraction=0"),
                            QStringLiteral("--edgefraction=0")});
    QCOMPARE(graph.code, 0);
    std::map<QByteArray, QByteArray> nodes;   // name -> "flat\tcum"
    for (const QByteArray &line : graph.out.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() == 4 && f[0] == "node")
            nodes[f[1]] = f[2] + '\t' + f[3];
    }
    int compared = 0;
    for (const QByteArray &line : top.out.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 3 || f[2].contains(" ("))
            continue;
        QCOMPARE(nodes.count(f[2]), size_t(1));
        QCOMPARE(nodes[f[2]], f[0] + '\t' + f[1]);
        ++compared;
    }
    QVERIFY(compared > 5);
    QVERIFY(nodes.count("analytics"));
    const auto bad = run({QStringLiteral("top"), cpu, QStringLiteral("--tagroot")});
    QCOMPARE(bad.code, 1);
    QCOMPARE(bad.err.count('\n'), 2);   // the message and the usage hint
}

void tst_LabelFrames::corpusInvertedRootsAreFlat_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = qflame::test::sharedPath(QStringLiteral("corpus"));
    QFile manifest(dir + QStringLiteral("/MANIFEST.tsv"));
    if (!manifest.open(QIODevice::ReadOnly))
        return;
    manifest.readLine();
    while (!manifest.atEnd()) {
        const QStringList cols = QString::fromUtf8(manifest.readLine()).chopped(1).split(QLatin1Char('\t'));
        if (cols.size() > 20 && cols[20] == QLatin1String("ok"))
            QTest::newRow(qPrintable(cols[0])) << dir + QLatin1Char('/') + cols[0];
    }
}

void tst_LabelFrames::corpusInvertedRootsAreFlat()
{
    QFLAME_SKIP_WITHOUT_SHARED(qflame::test::sharedPath(QStringLiteral("corpus/MANIFEST.tsv")));
    QFETCH(QString, path);
    const auto profile = readProfileFile(path);
    const int type = profile->effectiveDefaultType();
    BuildOptions o;
    const auto top = FlatTable::compute({profile}, size_t(type), o);
    o.filters.inverted = true;
    // As the window builds it: a first look (on large profiles), then the whole tree; both have the roots' values.
    StagedTreeBuild staged({profile}, size_t(type), o);
    const auto look = staged.firstLook();
    const auto tree = staged.complete();
    std::map<std::string, int64_t> roots, lookRoots, flats;
    for (NodeId c = tree->firstChild(CallTree::kRoot); c < tree->firstChild(CallTree::kRoot) + tree->childCount(CallTree::kRoot); ++c)
        if (tree->total(c) != 0)
            roots[tree->label(c)] += tree->total(c);
    for (NodeId c = look->firstChild(CallTree::kRoot); c < look->firstChild(CallTree::kRoot) + look->childCount(CallTree::kRoot); ++c)
        if (look->total(c) != 0)
            lookRoots[look->label(c)] += look->total(c);
    QVERIFY(lookRoots == roots);
    for (const FlatRow &r : top->rows())
        if (r.flat != 0)
            flats[std::string(top->label(size_t(&r - top->rows().data())))] += r.flat;
    QCOMPARE(roots.size(), flats.size());
    QVERIFY(roots == flats);
    QCOMPARE(tree->total(CallTree::kRoot), top->total());
    // And the bottom-up tree's own table has top's flat, cum and inline markers (from the call edges it keeps).
    const auto fromTree = FlatTable::compute(tree);
    QVERIFY(flatCum(*fromTree) == flatCum(*top));
}

QTEST_GUILESS_MAIN(tst_LabelFrames)
#include "tst_labelframes.moc"
