// The window's heap (io/Prefault.h, windowHeap): one arena for every thread, on transparent huge pages, until
// usualHeapTrimming gives it malloc's usual trimming back. Its own program, which sets it first thing in main as
// the window's programs do: the settings are the process's. Run with --verb-heap (ctest's tst_hugepageheap), it
// sets the verbs' heap instead, hugePageHeap alone: one arena on huge pages as well, never trimmed.
#include "io/Prefault.h"

#include <QFile>
#include <QTest>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#ifdef __GLIBC__
#include <unistd.h>
#endif

class tst_WindowHeap : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneHeapOnHugePagesThenTrimmed();
};

namespace {

const char *g_heapBefore = nullptr;   // the heap's end before windowHeap (or hugePageHeap)
bool g_verbHeap = false;              // hugePageHeap alone (--verb-heap), as the verbs' programs set it

const char *heapEnd()
{
#ifdef __GLIBC__
    return static_cast<const char *>(sbrk(0));
#else
    return nullptr;
#endif
}

// The VmFlags of the mapping that holds `address` (/proc/self/smaps), or "" when none does.
QByteArray vmFlagsOf(const void *address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return {};
    const auto at = reinterpret_cast<uintptr_t>(address);
    bool inside = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        const int dash = line.indexOf('-'), space = line.indexOf(' ');
        if (dash > 0 && space > dash && line.left(dash).toULongLong(nullptr, 16) != 0) {
            const uintptr_t from = line.left(dash).toULongLong(nullptr, 16);
            const uintptr_t to = line.mid(dash + 1, space - dash - 1).toULongLong(nullptr, 16);
            inside = from <= at && at < to;
        } else if (inside && line.startsWith("VmFlags:")) {
            return line.mid(8).trimmed();
        }
    }
    return {};
}

}   // namespace

void tst_WindowHeap::oneHeapOnHugePagesThenTrimmed()
{
#ifndef __GLIBC__
    QSKIP("windowHeap sets glibc's malloc only");
#else
    const auto top = heapEnd;
    const char *const before = g_heapBefore;
    QVERIFY(top() >= before + (size_t(64) << 20));   // grown by that much address space

    // A block another thread allocates comes from the same heap, the one sbrk grows (glibc would give the thread
    // an arena of its own, mapped elsewhere).
    void *mine = std::malloc(64);
    void *theirs = nullptr;
    std::thread([&] { theirs = std::malloc(64); }).join();
    const auto inHeap = [&](const void *p) { return p < top() && p >= top() - (size_t(256) << 20); };
    QVERIFY(inHeap(mine));
    QVERIFY2(inHeap(theirs), "the thread's block is not in the main heap");
    // That growth is advised huge pages ("hg" among the flags of its mapping; only whole 2 MiB pages are).
    const QByteArray flags = vmFlagsOf(before + (size_t(8) << 20));
    QVERIFY2(flags.split(' ').contains("hg"), flags.constData());
    std::free(theirs);
    std::free(mine);

    // 16 MiB freed at the heap's top stays mapped while the window opens its files...
    const auto allocateAndFree = [] {
        std::vector<void *> blocks;
        for (int i = 0; i < 256; ++i)
            blocks.push_back(std::malloc(64 << 10));   // below the mmap threshold: from the heap's top
        const void *top = sbrk(0);
        for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
            std::free(*it);
        return top;
    };
    const void *grown = allocateAndFree();
    QCOMPARE(sbrk(0), grown);
    // ... and is given back once the heap trims as usual (a verb's heap never is: its process is short).
    qflame::usualHeapTrimming();
    const void *again = allocateAndFree();
    if (g_verbHeap)
        QCOMPARE(sbrk(0), again);
    else
        QVERIFY2(sbrk(0) < again, "the heap was not trimmed");
#endif
}

int main(int argc, char **argv)
{
    qunsetenv("QFLAME_HEAP_4K");
    g_verbHeap = argc > 1 && std::strcmp(argv[1], "--verb-heap") == 0;
    if (g_verbHeap) {   // not an option of QTest's: the program's name takes its place
        argv[1] = argv[0];
        ++argv;
        --argc;
    }
    g_heapBefore = heapEnd();
    if (g_verbHeap)
        qflame::hugePageHeap(size_t(64) << 20);
    else
        qflame::windowHeap(size_t(64) << 20);
    QCoreApplication app(argc, argv);
    tst_WindowHeap test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_windowheap.moc"
