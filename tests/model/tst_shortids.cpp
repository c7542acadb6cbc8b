// The location ids of one or two bytes taken eight input bytes at a time (pprof/ShortVarints.h): exactly the
// varints from the start, less one, stopping only where it must; and whole samples so read alike one by one and
// by libprotobuf (fuzz/PprofCrossCheck.h).
#include "pprof/LocationIndexes.h"
#include "pprof/SampleWire.h"
#include "pprof/ShortVarints.h"
#include "PprofCrossCheck.h"
#include "profile.pb.h"
#include "WireWriter.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace qflame;
using qflame::test::Wire;
namespace pb = perftools::profiles;

namespace {

// A random location id: mostly one or two bytes, now and then three to five, or 0.
uint64_t randomId(std::mt19937 &rng)
{
    const uint32_t kind = rng() % 100;
    if (kind < 55)
        return 1 + rng() % 127;
    if (kind < 93)
        return 128 + rng() % (16384 - 128);
    if (kind < 97)
        return 16384 + rng() % (1u << 21);
    if (kind < 99)
        return (uint64_t(1) << 28) + rng() % (1u << 30);
    return 0;
}

}   // namespace

class tst_ShortIds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shortIdsReadAsOneByOne()
    {
        // The eight-bytes-at-a-time decoder against the varints read one by one: what it takes is exactly the
        // varints from the start, less one; it stops only where the next window holds a longer varint or a 0, or
        // where too few bytes, readable bytes or room are left; the largest is that of what it took.
        if (!wire::detail::haveShortIds())
            QSKIP("this CPU has no SSSE3: the location ids are read one by one");
        std::mt19937 rng(44);
        uint64_t taken = 0, stoppedEarly = 0;
        for (int round = 0; round < 20000; ++round) {
            Wire w;
            const int count = int(rng() % 80);
            const int rare = round % 4 == 0 ? 1 : 0;   // a quarter of the rounds with longer ids and zeros
            for (int i = 0; i < count; ++i)
                w.varint(rare ? randomId(rng) : (rng() % 2 ? 1 + rng() % 127 : 128 + rng() % (16384 - 128)));
            std::string bytes = w.bytes + std::string(16, '\xff');   // readable, never taken
            const auto *begin = reinterpret_cast<const uint8_t *>(bytes.data());
            const uint8_t *end = begin + w.bytes.size();
            const size_t room = 8 + rng() % 100;
            const uint8_t *readable = rng() % 8 == 0 ? end + rng() % 17 : begin + bytes.size();
            std::vector<uint16_t> out(room + 8, 0xabcd);
            uint32_t largest = 7;
            const uint8_t *q = begin;
            const size_t n = wire::detail::shortIdsLessOne(q, end, readable, out.data(), room, largest);
            QVERIFY(n <= room);
            uint32_t high = 7;
            const uint8_t *r = begin;
            for (size_t k = 0; k < n; ++k) {
                uint64_t v;
                r = wire::varint(r, end, v);
                QVERIFY(r != nullptr && v >= 1 && v < 16384);
                QCOMPARE(uint64_t(out[k]), v - 1);
                high = std::max(high, uint32_t(v - 1));
            }
            QCOMPARE(q, r);
            QCOMPARE(largest, high);
            taken += n;
            // Where it stopped with eight bytes, sixteen readable ones and room for eight left, the eight bytes from
            // there (or the byte before them) hold a varint of three bytes or more, or a 0.
            if (end - q >= 9 && readable - q >= 17 && room - n >= 8) {
                ++stoppedEarly;
                bool longOrZero = false;
                for (const uint8_t *s = q; s < q + 9 && s < end;) {
                    uint64_t v;
                    const uint8_t *t = wire::varint(s, end, v);
                    longOrZero |= t == nullptr || t - s > 2 || v == 0;
                    if (!t)
                        break;
                    s = t;
                }
                QVERIFY2(longOrZero, qPrintable(QStringLiteral("round %1 stopped at byte %2 of %3")
                                                    .arg(round).arg(q - begin).arg(end - begin)));
            }
        }
        QVERIFY2(taken > 300000 && stoppedEarly > 1000, qPrintable(QStringLiteral("%1 taken, %2 stopped early")
                                                                       .arg(taken).arg(stoppedEarly)));
    }

    void shortIdsInSamplesAgree()
    {
        // Whole samples with such ids (up to 600, past the decoder's local buffer of 256), some values and a label:
        // the hand-written decoder, its ids taken eight bytes at a time and one by one, against libprotobuf.
        std::mt19937 rng(45);
        int taken = 0;
        for (int round = 0; round < 4000; ++round) {
            pb::Sample s;
            const int count = round % 10 == 0 ? int(rng() % 600) : int(rng() % 60);
            for (int i = 0; i < count; ++i)
                s.add_location_id(round % 3 == 0 ? randomId(rng) : 1 + rng() % 3000);
            s.add_value(int64_t(rng() % 1000));
            if (round % 2)
                s.add_label()->set_key(int64_t(rng() % 10));
            const std::string bytes = s.SerializeAsString();
            const std::string mismatch = fuzz::crossCheckSampleWire(bytes);
            QVERIFY2(mismatch.empty(),
                     qPrintable(QStringLiteral("round %1: ").arg(round) + QString::fromStdString(mismatch)));
            taken += fuzz::sampleWireTakes(bytes);
        }
        QVERIFY2(taken > 2500, qPrintable(QStringLiteral("%1 taken").arg(taken)));
    }
};

QTEST_GUILESS_MAIN(tst_ShortIds)
#include "tst_shortids.moc"
