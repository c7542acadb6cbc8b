// A profile's label sets (pprof/LabelSets.h): each distinct set once, numbered as its first sample comes, and the
// check the fuzz differential uses finding each way the arrays can be wrong. Hand-made cases.
#include "pprof/LabelSets.h"

#include <QTest>

using namespace qflame;

namespace {

// Appends one sample with `labels` through the table, as the readers do.
void addSample(Profile &p, LabelSetTable &sets, std::initializer_list<Label> labels)
{
    const size_t from = p.labels.size();
    p.labels.insert(p.labels.end(), labels);
    sets.setSampleSet(p.sampleCount(), sets.closeAppended(from));
    p.sampleLocBegin.push_back(locationPosition(p.sampleLocations.size()));
}

Profile emptyProfile()
{
    Profile p;
    p.sampleLocBegin = {0};
    return p;
}

}   // namespace

class tst_LabelSets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachSetOnce();
    void noLabelsNoArray();
    void orderAndFieldsMatter();
    void manySets();
    void internCopiesFromAnotherProfile();
    void problemsFound_data();
    void problemsFound();
};

void tst_LabelSets::eachSetOnce()
{
    Profile p = emptyProfile();
    LabelSetTable sets(p);
    const Label a{1, 2, 0, 0}, b{3, 0, 4096, 5};
    addSample(p, sets, {a});
    addSample(p, sets, {a, b});
    addSample(p, sets, {});
    addSample(p, sets, {a});
    addSample(p, sets, {b});
    addSample(p, sets, {a, b});
    QCOMPARE(p.sampleLabelSet, (std::vector<uint32_t>{1, 2, 0, 1, 3, 2}));
    QCOMPARE(p.labelSetBegin, (std::vector<uint64_t>{0, 0, 1, 3, 4}));
    QCOMPARE(p.labels, (std::vector<Label>{a, a, b, b}));
    QCOMPARE(p.labelSetCount(), size_t(4));
    QCOMPARE(p.sampleLabels(1).size(), size_t(2));
    QVERIFY(p.sampleLabels(1)[1] == b);
    QVERIFY(p.sampleLabels(2).empty());
    QCOMPARE(labelSetsProblem(p), std::string());
}

void tst_LabelSets::noLabelsNoArray()
{
    // Samples without labels cost nothing until one has some; then the ones before get the empty set.
    Profile p = emptyProfile();
    LabelSetTable sets(p);
    addSample(p, sets, {});
    addSample(p, sets, {});
    QVERIFY(p.sampleLabelSet.empty());
    QCOMPARE(p.labelSetOf(1), uint32_t(0));
    QCOMPARE(labelSetsProblem(p), std::string());
    addSample(p, sets, {Label{7, 8, 0, 0}});
    addSample(p, sets, {});
    QCOMPARE(p.sampleLabelSet, (std::vector<uint32_t>{0, 0, 1, 0}));
    QCOMPARE(labelSetsProblem(p), std::string());
}

void tst_LabelSets::orderAndFieldsMatter()
{
    // The file's order of a sample's labels is kept, so two orders are two sets; so is each field.
    Profile p = emptyProfile();
    LabelSetTable sets(p);
    const Label a{1, 2, 0, 0}, b{3, 4, 0, 0};
    addSample(p, sets, {a, b});
    addSample(p, sets, {b, a});
    addSample(p, sets, {Label{1, 2, 0, 9}});
    addSample(p, sets, {Label{1, 2, 5, 0}});
    addSample(p, sets, {Label{1, 0, 0, 0}});
    addSample(p, sets, {a, a});
    addSample(p, sets, {a});
    QCOMPARE(p.sampleLabelSet, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(p.labels.size(), size_t(2 + 2 + 1 + 1 + 1 + 2 + 1));
    QCOMPARE(labelSetsProblem(p), std::string());
}

void tst_LabelSets::manySets()
{
    // Past the table's first 16 slots, each of 1,000 numbers its own set, met three times in turn.
    Profile p = emptyProfile();
    LabelSetTable sets(p);
    for (int round = 0; round < 3; ++round)
        for (int64_t n = 0; n < 1000; ++n)
            addSample(p, sets, {Label{1, 0, n, 2}});
    QCOMPARE(p.labelSetCount(), size_t(1001));
    QCOMPARE(p.labels.size(), size_t(1000));
    for (size_t s = 0; s < 3000; ++s) {
        QCOMPARE(p.sampleLabelSet[s], uint32_t(s % 1000 + 1));
        QCOMPARE(p.sampleLabels(s)[0].num, int64_t(s % 1000));
    }
    QCOMPARE(labelSetsProblem(p), std::string());
    // A table made on a profile that has sets already knows them.
    LabelSetTable again(p);
    const size_t from = p.labels.size();
    p.labels.push_back(Label{1, 0, 999, 2});
    QCOMPARE(again.closeAppended(from), uint32_t(1000));
    QCOMPARE(p.labels.size(), from);
}

void tst_LabelSets::internCopiesFromAnotherProfile()
{
    Profile from = emptyProfile();
    LabelSetTable fromSets(from);
    addSample(from, fromSets, {Label{1, 2, 0, 0}});
    addSample(from, fromSets, {Label{3, 4, 0, 0}});
    Profile to = emptyProfile();
    LabelSetTable toSets(to);
    // The second sample's set first: it is the first set of `to`.
    QCOMPARE(toSets.intern(from.sampleLabels(1)), uint32_t(1));
    QCOMPARE(toSets.intern(from.sampleLabels(0)), uint32_t(2));
    QCOMPARE(toSets.intern(from.sampleLabels(1)), uint32_t(1));
    QCOMPARE(toSets.intern({}), uint32_t(0));
    QCOMPARE(to.labels, (std::vector<Label>{Label{3, 4, 0, 0}, Label{1, 2, 0, 0}}));
}

void tst_LabelSets::problemsFound_data()
{
    QTest::addColumn<int>("breakage");
    QTest::addColumn<QString>("problem");
    QTest::newRow("none") << 0 << QString();
    QTest::newRow("empty set not first") << 1 << "the label sets do not start with the empty one or do not end at the labels' end";
    QTest::newRow("ends short") << 2 << "the label sets do not start with the empty one or do not end at the labels' end";
    QTest::newRow("an empty set") << 3 << "label set 2 is empty or ends before it begins";
    QTest::newRow("too few samples") << 4 << "not every sample has a label set";
    QTest::newRow("out of order") << 5 << "label set 2 comes before set 1 or does not exist";
    QTest::newRow("no such set") << 6 << "label set 3 comes before set 3 or does not exist";
    QTest::newRow("unused set") << 7 << "label set 2 is no sample's";
    QTest::newRow("two equal") << 8 << "two label sets are equal";
    QTest::newRow("all empty kept") << 9 << "the samples' label sets are kept although every one is empty";
}

void tst_LabelSets::problemsFound()
{
    QFETCH(int, breakage);
    QFETCH(QString, problem);
    Profile p = emptyProfile();
    {
        LabelSetTable sets(p);
        addSample(p, sets, {Label{1, 2, 0, 0}});
        addSample(p, sets, {Label{3, 4, 0, 0}});
        addSample(p, sets, {Label{1, 2, 0, 0}});
    }
    // Sets {0, 0, 1, 2}: set 1 = {1:2}, set 2 = {3:4}; samples 1, 2, 1.
    switch (breakage) {
    case 1: p.labelSetBegin[1] = 1; break;
    case 2: p.labelSetBegin.back() = 1; p.labelSetBegin[2] = 1; p.labels.push_back(Label{}); break;
    case 3: p.labelSetBegin = {0, 0, 2, 2}; break;
    case 4: p.sampleLabelSet.pop_back(); break;
    case 5: p.sampleLabelSet = {2, 1, 1}; break;
    case 6: p.sampleLabelSet = {1, 2, 3}; break;
    case 7: p.sampleLabelSet = {1, 1, 1}; break;
    case 8: p.labels[1] = p.labels[0]; break;
    case 9: p.sampleLabelSet = {0, 0, 0}; p.labels.clear(); p.labelSetBegin = {0, 0}; break;
    default: break;
    }
    QCOMPARE(QString::fromStdString(labelSetsProblem(p)), problem);
}

QTEST_APPLESS_MAIN(tst_LabelSets)
#include "tst_labelsets.moc"
