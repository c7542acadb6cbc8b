// The prefaulter (io/Prefault.h), which asks for the pages of arrays about to be filled on a thread of its own:
// it never changes what is there, and where the input announces more than it holds (a gzip trailer), it faults
// in only a little ahead of what was read.
#include "io/Prefault.h"
#include "pprof/PprofDecoder.h"
#include "ProfileFactory.h"

#include <QTest>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <QFile>

#include <algorithm>
#include <cctype>
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
    void releasingSplitsNoHugePage();
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

#if defined(__linux__)
namespace {

// Of the mapping that starts at `start` (/proc/self/smaps): its kilobytes on huge pages, or -1 if not found.
long hugeKilobytesOf(uintptr_t start)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return -1;
    bool inside = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        if (!line.isEmpty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line.contains('-')) {
            inside = line.left(line.indexOf('-')).toULongLong(nullptr, 16) == start;
            continue;
        }
        if (inside && line.startsWith("AnonHugePages:"))
            return line.mid(14).trimmed().split(' ').front().toLong();
    }
    return -1;
}

}   // namespace
#endif

void tst_Prefault::releasingSplitsNoHugePage()
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // An array's capacity past its end is given back from the first 2 MiB boundary on: a huge page is not split
    // to give back its end (splitting one made every page of the process dearer to reach again on this project's
    // VM). 8 MiB at a 2 MiB boundary, on huge pages where the kernel gives them, all written; then everything from
    // 1 MiB + 5 bytes in is given back: the first 2 MiB stay (whole), the 6 MiB after them go.
    constexpr size_t kHuge = size_t(2) << 20, kBytes = 4 * kHuge;
    void *const mapped = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QVERIFY(mapped != MAP_FAILED);
    // The mapping's part from its first 2 MiB boundary on, unmapped before it: its own mapping in smaps.
    const uintptr_t base = (uintptr_t(mapped) + kHuge - 1) & ~uintptr_t(kHuge - 1);
    if (base != uintptr_t(mapped))
        munmap(mapped, base - uintptr_t(mapped));
    const size_t bytes = kBytes - (base - uintptr_t(mapped));   // 3 or 4 huge pages
    char *const at = reinterpret_cast<char *>(base);
    adviseHugePages(at, bytes);
    std::fill(at, at + bytes, char(1));
    const long page = sysconf(_SC_PAGESIZE);
    auto resident = [&](size_t from, size_t to) {
        std::vector<unsigned char> in(kBytes / 512);   // room for pages of 512 bytes and up
        if (mincore(at + from, to - from, in.data()) != 0)
            return SIZE_MAX;
        const auto end = in.begin() + std::ptrdiff_t((to - from) / size_t(page));
        return size_t(std::count_if(in.begin(), end, [](unsigned char r) { return r & 1; }));
    };
    const long hugeBefore = hugeKilobytesOf(base);
    releasePages(at + (1 << 20) + 5, bytes - (1 << 20) - 5);
    QCOMPARE(resident(0, kHuge), kHuge / size_t(page));
    QCOMPARE(resident(kHuge, bytes), size_t(0));
    QCOMPARE(at[kHuge - 1], char(1));   // kept
    QCOMPARE(at[kHuge], char(0));       // given back: zeros when read again
    // Given back from a 2 MiB boundary itself: all of it, from there on.
    std::fill(at + kHuge, at + bytes, char(1));
    releasePages(at + kHuge, bytes - kHuge);
    QCOMPARE(resident(kHuge, bytes), size_t(0));
    QCOMPARE(resident(0, kHuge), kHuge / size_t(page));
    // The first huge page is still one (where the kernel gave one: transparent huge pages may be off).
    if (hugeBefore >= 2048)
        QCOMPARE(hugeKilobytesOf(base), 2048L);
    else
        qInfo("no transparent huge pages here (AnonHugePages %ld kB): the split itself not checked", hugeBefore);
    munmap(at, bytes);
#else
    QSKIP("huge pages and madvise are Linux's");
#endif
}

QTEST_GUILESS_MAIN(tst_Prefault)
#include "tst_prefault.moc"
