// LocationIndexes and SampleValues (pprof/NarrowOrWide.h): a profile's sample locations take 2 bytes each while
// every index fits, 4 from the first that does not; its values 4 bytes while every one fits, 8 from the first that
// does not. The decoder keeps them so whatever the file holds, and every walk that reads them by width (the top
// table's sums, the tree builds, the first look) gives the same result for both.
#include "formats/ProfileInput.h"
#include "io/InflatingStream.h"
#include "pprof/LocationIndexes.h"
#include "pprof/SampleValues.h"
#include "pprof/PprofReader.h"
#include "PprofCrossCheck.h"
#include "PprofMaker.h"
#include "profile.pb.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/StagedTree.h"

#include <QTest>

#include <climits>
#include <functional>

using namespace qflame;
namespace pb = perftools::profiles;

namespace {

using Stacks = std::vector<std::vector<uint64_t>>;   // location ids, leaf first

std::shared_ptr<const Profile> readInBlocks(const std::string &bytes, size_t blockSize)
{
    InflatingStream in(bytes, Compression::None, ReadOptions{}.maxDecompressedBytes, blockSize);
    return readPprofInflating(in, "blocks", ReadOptions{});
}

// `locations` locations with the ids idOf(0), idOf(1)..., each in a function of its own, and the stacks as
// samples (value 1 each), all of them `copies` times over.
std::string profileBytes(int locations, const std::function<uint64_t(int)> &idOf, const Stacks &stacks,
                         int copies)
{
    pb::Profile p;
    p.add_string_table("");
    p.add_string_table("samples");
    p.add_string_table("count");
    p.add_string_table("f");
    auto *type = p.add_sample_type();
    type->set_type(1);
    type->set_unit(2);
    auto *f = p.add_function();
    f->set_id(1);
    f->set_name(3);
    for (int i = 0; i < locations; ++i) {
        auto *l = p.add_location();
        l->set_id(idOf(i));
        l->add_line()->set_function_id(1);
    }
    for (int c = 0; c < copies; ++c) {
        for (const std::vector<uint64_t> &stack : stacks) {
            auto *s = p.add_sample();
            for (uint64_t id : stack)
                s->add_location_id(id);
            s->add_value(1);
        }
    }
    return p.SerializeAsString();
}

// The bytes of a Profile field holding one Sample of one location (id below 128) whose values are written one at
// a time (unpacked), which libprotobuf's writer never does but a reader must take. Shorter than 128 bytes, its
// length takes one byte.
std::string unpackedSample(uint64_t location, const std::vector<int64_t> &values)
{
    std::string sample = "\x08" + std::string(1, char(location));
    for (int64_t v : values) {
        sample += '\x10';
        for (uint64_t u = uint64_t(v);; u >>= 7) {
            if (u < 0x80) {
                sample += char(u);
                break;
            }
            sample += char((u & 0x7f) | 0x80);
        }
    }
    return std::string("\x12") + char(sample.size()) + sample;
}

void sameTree(const CallTree &a, const CallTree &b)
{
    QCOMPARE(a.size(), b.size());
    QCOMPARE(a.maxDepth(), b.maxDepth());
    QCOMPARE(a.isComplete(), b.isComplete());
    for (NodeId n = 0; n < a.size(); ++n) {
        if (a.parent(n) != b.parent(n) || a.label(n) != b.label(n) || a.childCount(n) != b.childCount(n) ||
            a.self(n) != b.self(n) || a.total(n) != b.total(n) || a.samples(n) != b.samples(n) ||
            a.callKinds(n) != b.callKinds(n) || a.hiddenHeight(n) != b.hiddenHeight(n))
            QFAIL(qPrintable(QStringLiteral("node %1 differs").arg(n)));
    }
}

void sameTable(const FlatTable &a, const FlatTable &b)
{
    QCOMPARE(a.rows().size(), b.rows().size());
    QCOMPARE(a.total(), b.total());
    for (size_t r = 0; r < a.rows().size(); ++r) {
        const FlatRow &x = a.rows()[r], &y = b.rows()[r];
        if (a.label(r) != b.label(r) || x.flat != y.flat || x.cum != y.cum || x.inlined != y.inlined)
            QFAIL(qPrintable(QStringLiteral("row %1 differs").arg(r)));
    }
}

}   // namespace

class tst_LocationIndexes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Where each sample's locations begin is kept in 32 bits (Profile::sampleLocBegin): a position past that
    // throws instead of wrapping to the start of the array.
    void samplePositionsIn32Bits()
    {
        QCOMPARE(locationPosition(0), 0u);
        QCOMPARE(locationPosition(UINT32_MAX), uint32_t(UINT32_MAX));
        QVERIFY_THROWS_EXCEPTION(std::length_error, locationPosition(size_t(UINT32_MAX) + 1));
        test::PprofMaker m;
        m.stack("main;work", 1);
        m.stack("main", 2);
        m.stack("main;work;leaf", 3);
        QCOMPARE(m.profile()->sampleLocBegin, (std::vector<uint32_t>{0, 2, 3, 6}));
    }

    void narrowUntilAnEntryNeedsMore()
    {
        LocationIndexes ids;
        ids.push_back(7);
        ids.push_back(65535);
        QVERIFY(!ids.isWide());
        QCOMPARE(ids.entryBytes(), size_t(2));
        QCOMPARE(ids[1], 65535u);
        ids.push_back(65536);
        QVERIFY(ids.isWide());
        QCOMPARE(ids.entryBytes(), size_t(4));
        QCOMPARE(ids.toVector(), (std::vector<uint32_t>{7, 65535, 65536}));
        QCOMPARE(ids.view()[2], 65536u);
        QCOMPARE(ids.view().address(1), static_cast<const void *>(ids.view().wide + 1));

        LocationIndexes set{1, 2, 3};
        set.set(1, 9);
        QVERIFY(!set.isWide());
        set.widen();
        set.set(2, 100000);
        QVERIFY(set.isWide());
        QCOMPARE(set.toVector(), (std::vector<uint32_t>{1, 9, 100000}));
        set.resize(2);
        QCOMPARE(set.toVector(), (std::vector<uint32_t>{1, 9}));
        QVERIFY(set.isWide());   // stays so

        const LocationIndexes narrow{4, 5};
        QVERIFY(narrow.view().narrow && !narrow.view().wide);
        QCOMPARE(narrow.view()[1], 5u);
        QCOMPARE(narrow.visit([](const auto *e) { return sizeof(*e); }), size_t(2));
    }

    void appendAndEquality()
    {
        const LocationIndexes a{1, 2, 3};
        LocationIndexes b;
        b.append(a, 1, 3);
        QCOMPARE(b.toVector(), (std::vector<uint32_t>{2, 3}));
        QVERIFY(!b.isWide());
        const std::vector<uint64_t> more{5, uint64_t(1) << 20};
        b.append(more.begin(), more.end());
        QVERIFY(b.isWide());
        QCOMPARE(b.toVector(), (std::vector<uint32_t>{2, 3, 5, 1u << 20}));

        // Equal entries are equal lists, whatever their width.
        LocationIndexes wide{2, 3, 5};
        wide.widen();
        LocationIndexes narrow{2, 3, 5};
        QVERIFY(wide.isWide() && !narrow.isWide());
        QVERIFY(wide == narrow);
        narrow.push_back(6);
        QVERIFY(!(wide == narrow));
        wide.append(narrow, 3, 4);
        QVERIFY(wide == narrow);
        QCOMPARE(LocationIndexes(std::vector<uint32_t>{1, 70000}).toVector(), (std::vector<uint32_t>{1, 70000}));
    }

    void narrowValuesUntilOneNeedsMore()
    {
        SampleValues v;
        v.push_back(INT32_MAX);
        v.push_back(INT32_MIN);
        v.push_back(-1);
        QVERIFY(!v.isWide());
        QCOMPARE(v.entryBytes(), size_t(4));
        QCOMPARE(v[1], int64_t(INT32_MIN));
        v.push_back(int64_t(INT32_MAX) + 1);
        QVERIFY(v.isWide());
        QCOMPARE(v.entryBytes(), size_t(8));
        QCOMPARE(v.toVector(), (std::vector<int64_t>{INT32_MAX, INT32_MIN, -1, int64_t(INT32_MAX) + 1}));

        SampleValues below{1, 2};
        below.push_back(int64_t(INT32_MIN) - 1);
        QVERIFY(below.isWide());
        QCOMPARE(below.view()[2], int64_t(INT32_MIN) - 1);

        // Sums written back in place (the folded formats' repeated stacks, PGO's trimmed samples).
        SampleValues sums{1, 2};
        sums.setWidening(0, 5);
        QVERIFY(!sums.isWide());
        sums.setWidening(1, int64_t(1) << 40);
        QVERIFY(sums.isWide());
        QCOMPARE(sums.toVector(), (std::vector<int64_t>{5, int64_t(1) << 40}));

        const std::vector<int64_t> more{-3, -(int64_t(1) << 33)};
        SampleValues appended{7};
        appended.append(more.begin(), more.begin() + 1);
        QVERIFY(!appended.isWide());
        appended.append(more.begin() + 1, more.end());
        QVERIFY(appended.isWide());
        QCOMPARE(appended.toVector(), (std::vector<int64_t>{7, -3, -(int64_t(1) << 33)}));
        SampleValues narrow{7, -3};
        QVERIFY(!(narrow == appended));
        narrow.push_back(-(int64_t(1) << 33));
        QVERIFY(narrow == appended);
    }

    // Values as the decoder keeps them: 4 bytes while every one fits, 8 bytes from the first that does not, packed
    // or one at a time, before or after the arrays are reserved for the rest of the file (its first 4,096 samples),
    // every value as libprotobuf reads it.
    void decoderKeepsTheWidthTheValuesNeed_data()
    {
        QTest::addColumn<std::vector<int64_t>>("big");   // the values of the one sample that differs
        QTest::addColumn<int>("at");                     // its place among 10,000 samples of values {3, 1000}
        QTest::addColumn<bool>("unpacked");
        QTest::addColumn<bool>("wide");
        const int64_t past = int64_t(INT32_MAX) + 1;
        QTest::newRow("the largest and smallest of 4 bytes") << std::vector<int64_t>{INT32_MAX, INT32_MIN} << 5000
                                                             << false << false;
        QTest::newRow("2^31, packed, first") << std::vector<int64_t>{1, past} << 0 << false << true;
        QTest::newRow("2^31, packed, after the reservation") << std::vector<int64_t>{1, past} << 9000 << false
                                                             << true;
        QTest::newRow("below -2^31, packed") << std::vector<int64_t>{int64_t(INT32_MIN) - 1, 2} << 6000 << false
                                             << true;
        QTest::newRow("-1, one at a time") << std::vector<int64_t>{-1, 5} << 100 << true << false;
        QTest::newRow("2^40, one at a time") << std::vector<int64_t>{7, int64_t(1) << 40} << 7000 << true << true;
        QTest::newRow("INT64_MIN, one at a time") << std::vector<int64_t>{INT64_MIN, 0} << 9999 << true << true;
    }
    void decoderKeepsTheWidthTheValuesNeed()
    {
        QFETCH(std::vector<int64_t>, big);
        QFETCH(int, at);
        QFETCH(bool, unpacked);
        QFETCH(bool, wide);
        constexpr int kSamples = 10000;
        test::PprofMaker m({{"objects", "count"}, {"space", "bytes"}});
        const uint64_t leaf = m.at("leaf");
        std::string raw = m.proto().SerializeAsString();   // the metadata, then the samples
        pb::Profile samples;
        const auto addSamples = [&](int from, int to) {
            samples.clear_sample();
            for (int i = from; i < to; ++i) {
                pb::Sample *sample = samples.add_sample();
                sample->add_location_id(leaf);
                for (int64_t v : i == at ? big : std::vector<int64_t>{3, 1000})
                    sample->add_value(v);
            }
            raw += samples.SerializeAsString();
        };
        if (unpacked) {
            addSamples(0, at);
            raw += unpackedSample(leaf, big);
            addSamples(at + 1, kSamples);
        } else {
            addSamples(0, kSamples);
        }
        const std::string mismatch = fuzz::crossCheckPprof(raw);
        QVERIFY2(mismatch.empty(), mismatch.c_str());
        const auto read = readPprof(raw, "raw");
        QCOMPARE(read->sampleCount(), size_t(kSamples));
        QCOMPARE(read->values.isWide(), wide);
        for (int i = 0; i < kSamples; ++i) {
            const std::vector<int64_t> want = i == at ? big : std::vector<int64_t>{3, 1000};
            if (read->value(size_t(i), 0) != want[0] || read->value(size_t(i), 1) != want[1])
                QFAIL(qPrintable(QStringLiteral("sample %1 has other values").arg(i + 1)));
        }
        QCOMPARE(read->total(0), int64_t(3) * (kSamples - 1) + big[0]);
    }

    // Sums past 4 bytes of values that each fit: in 8 bytes, in the total and in a folded profile's repeated
    // stacks, whose values are added in place.
    void sumsOfNarrowValuesAreWide()
    {
        test::PprofMaker m;
        for (int i = 0; i < 3; ++i)
            m.stack("main;work", INT32_MAX);
        const auto read = m.profile();
        QVERIFY(!read->values.isWide());
        QCOMPARE(read->total(0), int64_t(3) * INT32_MAX);
        const auto table = FlatTable::compute({read}, 0, BuildOptions{});
        QCOMPARE(table->rows().front().flat, int64_t(3) * INT32_MAX);

        const auto folded = readProfile("main;work 2000000000\nmain;work 2000000000\nmain 1\n", "folded");
        QCOMPARE(folded->sampleCount(), size_t(2));
        QVERIFY(folded->values.isWide());
        QCOMPARE(folded->value(0, 0), int64_t(4000000000));
        QCOMPARE(folded->value(1, 0), int64_t(1));
    }

    // The decoder against libprotobuf's whole-message parse (fuzz/PprofCrossCheck.h) sample by sample, and the
    // width it keeps: 2 bytes unless an index, or while reading an id (ids are kept less one until the locations
    // are known), needs more.
    void decoderKeepsTheWidthTheIndexesNeed_data()
    {
        QTest::addColumn<int>("locations");
        QTest::addColumn<int>("idKind");   // 0: 1..N, 1: N..1, 2: from 2^20, 3: from 2^40
        QTest::addColumn<int>("stacksKind");
        QTest::addColumn<int>("copies");
        QTest::addColumn<bool>("wide");
        QTest::newRow("ids 1..100") << 100 << 0 << 0 << 1 << false;
        // 60,000 samples: the ids are resolved in two halves side by side.
        QTest::newRow("70,000 locations, ids to 65,535 named") << 70000 << 0 << 1 << 30000 << false;
        // Ids are kept less one, the indexes they are when ordinal: id 65,536 is index 65,535, still 2 bytes.
        QTest::newRow("70,000 locations, id 65,536 named") << 70000 << 0 << 2 << 30000 << false;
        QTest::newRow("70,000 locations, id 65,537 named") << 70000 << 0 << 6 << 30000 << true;
        QTest::newRow("70,000 locations, a long stack") << 70000 << 0 << 3 << 30000 << true;
        QTest::newRow("ids counted down from 70,000") << 70000 << 1 << 4 << 30000 << true;
        QTest::newRow("ids from 2^20") << 10 << 2 << 5 << 1 << true;
        QTest::newRow("ids from 2^40, read by libprotobuf") << 10 << 3 << 5 << 1 << true;
    }
    void decoderKeepsTheWidthTheIndexesNeed()
    {
        QFETCH(int, locations);
        QFETCH(int, idKind);
        QFETCH(int, stacksKind);
        QFETCH(int, copies);
        QFETCH(bool, wide);
        const std::function<uint64_t(int)> idOf = [&](int i) -> uint64_t {
            switch (idKind) {
            case 0: return uint64_t(i) + 1;
            case 1: return uint64_t(locations - i);
            case 2: return (uint64_t(1) << 20) + uint64_t(i);
            default: return (uint64_t(1) << 40) + uint64_t(i);
            }
        };
        Stacks stacks;
        switch (stacksKind) {
        case 0: stacks = {{1, 2, 3}, {100, 1}}; break;
        case 1: stacks = {{65535, 1}, {2}}; break;    // the largest id of 2 bytes
        case 2: stacks = {{65536, 1}, {2}}; break;   // the largest index of 2 bytes
        case 6: stacks = {{65537, 1}, {2}}; break;
        case 3: {   // 300 ids in one packed field, the 281st above 65,535: past the part decoded on the stack
            std::vector<uint64_t> deep;
            for (int k = 0; k < 300; ++k)
                deep.push_back(k == 280 ? 69999 : uint64_t(k % 100) + 1);
            stacks = {{3, 2, 1}, deep, {3, 70000, 1}};
            break;
        }
        case 4: stacks = {{1, 2}, {3}}; break;   // ids of 2 bytes, but id 1 is index 69,999
        default: stacks = {{idOf(0), idOf(9)}, {idOf(3)}}; break;
        }
        const std::string raw = profileBytes(locations, idOf, stacks, copies);
        const std::string mismatch = fuzz::crossCheckPprof(raw);
        QVERIFY2(mismatch.empty(), mismatch.c_str());
        const auto read = readPprof(raw, "raw");
        QCOMPARE(read->sampleCount(), stacks.size() * size_t(copies));
        QCOMPARE(read->sampleLocations.isWide(), wide);
        // The last copy's stacks, by the ids their indexes lead to.
        const size_t first = stacks.size() * size_t(copies - 1);
        for (size_t s = 0; s < stacks.size(); ++s) {
            const uint64_t begin = read->sampleLocBegin[first + s];
            QCOMPARE(read->sampleLocBegin[first + s + 1] - begin, uint64_t(stacks[s].size()));
            for (size_t k = 0; k < stacks[s].size(); ++k)
                QCOMPARE(read->locations[read->sampleLocations[begin + k]].id, stacks[s][k]);
        }
    }

    // Id 0 names no location. Resolving ids 1..N subtracts one, and 0 must not become a 2-byte 65,535 that a
    // profile of more locations has.
    void idZeroIsNoLocation_data()
    {
        QTest::addColumn<int>("locations");
        QTest::newRow("4 locations") << 4;
        QTest::newRow("70,000 locations") << 70000;
    }
    void idZeroIsNoLocation()
    {
        QFETCH(int, locations);
        const std::string raw = profileBytes(locations, [](int i) { return uint64_t(i) + 1; }, {{1, 2}, {0, 3}}, 1);
        try {
            readPprof(raw, "raw");
            QFAIL("accepted");
        } catch (const ProfileError &e) {
            QCOMPARE(QString(e.what()),
                     QStringLiteral("raw: malformed profile: sample 2 refers to location id 0, which does not exist"));
        }
    }

    // The same trees, first looks and top tables from a profile read with 2-byte locations and 4-byte values and
    // from a copy of it made 4 and 8 bytes wide. 60,000 samples: the top table's sums run in two halves.
    void walksReadBothWidthsAlike_data()
    {
        QTest::addColumn<bool>("inverted");
        QTest::addColumn<int>("granularity");
        QTest::addColumn<bool>("collapse");
        QTest::newRow("top-down, functions") << false << int(Granularity::Functions) << false;
        QTest::newRow("bottom-up, functions") << true << int(Granularity::Functions) << false;
        QTest::newRow("top-down, lines") << false << int(Granularity::Lines) << false;
        QTest::newRow("bottom-up, lines") << true << int(Granularity::Lines) << false;
        QTest::newRow("top-down, collapsed") << false << int(Granularity::Functions) << true;
    }
    void walksReadBothWidthsAlike()
    {
        QFETCH(bool, inverted);
        QFETCH(int, granularity);
        QFETCH(bool, collapse);
        test::PprofMaker m;
        std::vector<uint64_t> fns, locs;
        for (int f = 0; f < 40; ++f)
            fns.push_back(m.fn("f" + std::to_string(f)));
        for (int k = 0; k < 80; ++k)   // location k: function k % 40, line 1 + k / 40
            locs.push_back(m.loc({{fns[size_t(k % 40)], 1 + k / 40}}));
        for (int k = 0; k < 6; ++k)    // f(k) inlined into f(k + 20)
            locs.push_back(m.loc({{fns[size_t(k)], 7}, {fns[size_t(k + 20)], 9}}));
        uint32_t state = 99;
        const auto next = [&state](uint32_t below) {
            state = state * 1103515245u + 12345u;
            return (state >> 8) % below;
        };
        for (int i = 0; i < 60000; ++i) {
            std::vector<uint64_t> stack;
            const uint32_t depth = 1 + next(30);
            uint32_t k = next(8);
            for (uint32_t d = 0; d < depth; ++d) {
                stack.push_back(locs[k]);
                k = next(100) < 85 ? (k * 7 + 3) % 40 : next(uint32_t(locs.size()));
            }
            m.sample(stack, {int64_t(1 + next(500))});
        }
        const auto narrow = m.profile();
        QVERIFY(!narrow->sampleLocations.isWide());
        QVERIFY(!narrow->values.isWide());
        auto wideCopy = std::make_shared<Profile>(*narrow);
        wideCopy->sampleLocations.widen();
        wideCopy->values.widen();
        QVERIFY(wideCopy->sampleLocations.isWide() && wideCopy->values.isWide());
        QVERIFY(wideCopy->sampleLocations == narrow->sampleLocations);
        QVERIFY(wideCopy->values == narrow->values);
        const std::vector<std::shared_ptr<const Profile>> a{narrow}, b{wideCopy};

        BuildOptions options;
        options.filters.inverted = inverted;
        options.filters.collapseRecursion = collapse;
        options.granularity = Granularity(granularity);
        const auto treeA = CallTreeBuilder::build(a, 0, options), treeB = CallTreeBuilder::build(b, 0, options);
        sameTree(*treeA, *treeB);
        QVERIFY(treeA->size() > 1000);
        StagedTreeBuild stagedA(a, 0, options, 2048), stagedB(b, 0, options, 2048);
        const auto firstA = stagedA.firstLook(), firstB = stagedB.firstLook();
        QVERIFY(!firstA->isComplete());   // a cut: the first look's own walk ran
        sameTree(*firstA, *firstB);
        sameTree(*stagedB.complete(), *treeA);
        const auto tableA = FlatTable::compute(a, 0, options), tableB = FlatTable::compute(b, 0, options);
        sameTable(*tableA, *tableB);
        sameTable(*FlatTable::compute(treeA), *tableB);   // the table from the tree, another road
        QCOMPARE(tableA->total(), narrow->total(0));
    }

    void locationIdsBecomeIndexes_data()
    {
        // The locations' ids in file order, the samples' ids (one sample each), and the indexes they must become.
        // The entries are read as the ids less one and are the indexes already when the ids are 1..N; otherwise
        // they go back to the ids and are looked up, id 65,536 (an entry of 65,535 in 2 bytes) included.
        QTest::addColumn<std::vector<uint64_t>>("locationIds");
        QTest::addColumn<std::vector<uint64_t>>("sampleIds");
        QTest::addColumn<std::vector<uint32_t>>("indexes");
        QTest::newRow("1..3") << std::vector<uint64_t>{1, 2, 3} << std::vector<uint64_t>{3, 1, 2}
                              << std::vector<uint32_t>{2, 0, 1};
        QTest::newRow("2..4") << std::vector<uint64_t>{2, 3, 4} << std::vector<uint64_t>{4, 2, 3}
                              << std::vector<uint32_t>{2, 0, 1};
        QTest::newRow("3, 1, 2") << std::vector<uint64_t>{3, 1, 2} << std::vector<uint64_t>{3, 1, 2}
                                 << std::vector<uint32_t>{0, 1, 2};
        QTest::newRow("1 and 65,536") << std::vector<uint64_t>{1, 65536} << std::vector<uint64_t>{65536, 1, 65536}
                                      << std::vector<uint32_t>{1, 0, 1};
        QTest::newRow("1 and 65,537") << std::vector<uint64_t>{65537, 1} << std::vector<uint64_t>{1, 65537}
                                      << std::vector<uint32_t>{1, 0};
        // The last id in 31 bits, and the first past them.
        const uint64_t top = (uint64_t(1) << 31) - 1, big = uint64_t(1) << 31;
        QTest::newRow("1 and 2^31 - 1") << std::vector<uint64_t>{1, top} << std::vector<uint64_t>{1, top}
                                        << std::vector<uint32_t>{0, 1};
        QTest::newRow("1 and 2^31") << std::vector<uint64_t>{big, 1} << std::vector<uint64_t>{1, big}
                                    << std::vector<uint32_t>{1, 0};
    }

    void locationIdsBecomeIndexes()
    {
        QFETCH(std::vector<uint64_t>, locationIds);
        QFETCH(std::vector<uint64_t>, sampleIds);
        QFETCH(std::vector<uint32_t>, indexes);
        pb::Profile p;
        for (const char *s : {"", "samples", "count", "f"})
            p.add_string_table(s);
        p.add_sample_type()->set_type(1);
        p.mutable_sample_type(0)->set_unit(2);
        p.add_function()->set_id(1);
        p.mutable_function(0)->set_name(3);
        for (uint64_t id : locationIds) {
            pb::Location *l = p.add_location();
            l->set_id(id);
            l->add_line()->set_function_id(1);
        }
        for (uint64_t id : sampleIds) {
            pb::Sample *s = p.add_sample();
            s->add_location_id(id);
            s->add_value(1);
        }
        const std::string bytes = p.SerializeAsString();
        for (size_t block : {size_t(1), size_t(64 * 1024)}) {
            const auto read = readInBlocks(bytes, block);
            QCOMPARE(read->sampleLocations.toVector(), indexes);
            for (size_t i = 0; i < indexes.size(); ++i)
                QCOMPARE(read->locations[indexes[i]].id, sampleIds[i]);
        }
        // One id past the locations, or 0, is still reported as the id it is.
        for (uint64_t bad : {uint64_t(0), *std::max_element(locationIds.begin(), locationIds.end()) + 1}) {
            pb::Profile q = p;
            q.mutable_sample(0)->set_location_id(0, bad);
            try {
                readPprof(q.SerializeAsString(), "bad");
                QFAIL("read a sample with a location id that does not exist");
            } catch (const ProfileError &e) {
                QCOMPARE(std::string(e.what()), "bad: malformed profile: sample 1 refers to location id " +
                                                         std::to_string(bad) + ", which does not exist");
            }
        }
    }
};

QTEST_GUILESS_MAIN(tst_LocationIndexes)
#include "tst_locationindexes.moc"
