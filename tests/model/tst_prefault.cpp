// The prefaulter (io/Prefault.h), which asks for the pages of arrays about to be filled on a thread of its own:
// it never changes what is there, and where the input announces more than it holds (a gzip trailer), it faults
// in only a little ahead of what was read.
#include "io/Prefault.h"
#include "pprof/PprofDecoder.h"
#include "ProfileFactory.h"

#include <QTest>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace qflame;

namespace {

// The pprof bytes of `n` samples of stacks 1-3 deep over a few functions.
std::string manySamples(int n)
{
    std::string folded;
    for (int i = 0; i < n; ++i)
        folded += "main;f" + std::to_string(i % 20) + (i % 3 ? ";g" + std::to_string(i % 7) : std::string()) + " " +
                  std::to_string(1 + i % 5) + "\n";
    test::FoldedProfile spec;
    spec.folded = folded;
    return test::pprofBytes(spec);
}

}   // namespace

class tst_Prefault : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void prefaultingKeepsTheContent();
    void prefaultingFollowsTheInput();
};

void tst_Prefault::prefaultingKeepsTheContent()
{
    // The prefaulter runs beside the thread filling the arrays, over pages that thread is writing: it must
    // never change what is there, and it must have faulted in the rest when it is done.
    std::vector<uint32_t> written(4u << 20), reserved;
    for (size_t i = 0; i < written.size(); ++i)
        written[i] = uint32_t(i * 2654435761u);
    reserved.reserve(8u << 20);
    reserved.resize(1000, 7);
    Prefaulter prefaulter;
    prefaulter.start({{written.data(), written.size() * sizeof(uint32_t)}, Prefaulter::unwritten(reserved)});
    prefaulter.wait();
    for (size_t i = 0; i < written.size(); ++i)
        if (written[i] != uint32_t(i * 2654435761u))
            QFAIL(qPrintable(QStringLiteral("element %1 changed").arg(i)));
    QVERIFY(std::all_of(reserved.begin(), reserved.end(), [](uint32_t v) { return v == 7; }));
#if defined(__linux__)
    // Resident now, every whole page of the untouched capacity (mincore), though nothing wrote there.
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t begin = (uintptr_t(reserved.data() + reserved.size()) + page - 1) & ~uintptr_t(page - 1);
    const uintptr_t end = uintptr_t(reserved.data() + reserved.capacity()) & ~uintptr_t(page - 1);
    std::vector<unsigned char> resident((end - begin) / size_t(page));
    QCOMPARE(mincore(reinterpret_cast<void *>(begin), end - begin, resident.data()), 0);
    QCOMPARE(size_t(std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; })),
             resident.size());
#endif
}

void tst_Prefault::prefaultingFollowsTheInput()
{
#if defined(__linux__)
    // The sample arrays are reserved for the size the input announces; a gzip trailer can announce up to 64
    // times the compressed size whatever the truth. The pages are faulted in only a little ahead of the input
    // actually read, so the reservation beyond it stays address space.
    // The decode pauses for 300 ms once it has read 65,536 fields: time enough for a prefaulter that ran
    // ahead of the input to reach the far half of the reservation.
    const std::string raw = manySamples(70000);
    Profile p;
    google::protobuf::io::ArrayInputStream in(raw.data(), int(raw.size()));
    int pauses = 0;
    decodePprof(in, raw.size() * 64, "data", p, [&] {
        ++pauses;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        return true;
    });
    QCOMPARE(pauses, 1);
    QCOMPARE(p.sampleCount(), size_t(70000));
    const long page = sysconf(_SC_PAGESIZE);
    auto residentPages = [page](const void *from, const void *to) {
        const uintptr_t begin = (uintptr_t(from) + page - 1) & ~uintptr_t(page - 1);
        const uintptr_t end = uintptr_t(to) & ~uintptr_t(page - 1);
        std::vector<unsigned char> resident(end > begin ? (end - begin) / size_t(page) : 0);
        if (!resident.empty() && mincore(reinterpret_cast<void *>(begin), end - begin, resident.data()) != 0)
            return SIZE_MAX;
        return size_t(std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; }));
    };
    const LocationIndexes &locations = p.sampleLocations;
    QVERIFY2(locations.capacity() > 20 * locations.size(), qPrintable(QString::number(locations.capacity())));
    const char *data = locations.visit([](const auto *entries) { return reinterpret_cast<const char *>(entries); });
    const size_t bytes = locations.capacity() * locations.entryBytes();
    QCOMPARE(residentPages(data + bytes / 2, data + bytes), size_t(0));
#endif
}


QTEST_GUILESS_MAIN(tst_Prefault)
#include "tst_prefault.moc"
