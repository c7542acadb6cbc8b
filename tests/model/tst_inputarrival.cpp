// A compressed file is inflated while it is still being read (io/InputArrival.h, InputBytes::readRest): the
// inflater must take exactly the bytes that have arrived, wait for more, and judge what follows a gzip member or
// the last zstd frame on all of it. Every stream here is fed in pieces by another thread into a buffer whose unread
// part is garbage, and must give the same bytes and the same outcome as when it is all there at once; with gzip
// through each library built in. Then the two-step read of a real file, a file that shrinks between the steps, and
// a profile read through the whole door.
#include "InflateOutcome.h"
#include "ProfileFactory.h"
#include "formats/ProfileInput.h"
#include "io/Compression.h"
#include "io/Inflater.h"
#include "io/InflatingStream.h"
#include "io/InputArrival.h"
#include "io/InputFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

#include <chrono>
#include <random>
#include <thread>

using namespace qflame;

namespace {

using Outcome = test::InflateOutcome;

Outcome inflate(std::string_view in, Compression c, GzipLibrary lib, size_t readSize,
                const InputArrival *arrival = nullptr)
{
    return test::inflateAll(in, c, lib, readSize, 1u << 30, arrival);
}

// The error without its byte position (the position depends on how far the library had read).
std::string kind(const std::string &error)
{
    return error.substr(0, error.find_first_of("(0123456789"));
}

// `in` fed into a buffer of `room` bytes (the rest garbage) by another thread, in pieces of random sizes from 1
// byte to 64 KiB, now and then after a pause; then the end.
Outcome inflateArriving(const std::string &in, size_t room, Compression c, GzipLibrary lib, size_t readSize,
                        unsigned seed)
{
    std::string buffer(room, char(0xa5));
    InputArrival arrival(0);
    std::thread feeder([&] {
        std::mt19937 rng(seed);
        size_t at = 0;
        while (at < in.size()) {
            const size_t piece = std::min(in.size() - at, size_t(1) << (rng() % 17));
            std::copy_n(in.begin() + std::ptrdiff_t(at), piece, buffer.begin() + std::ptrdiff_t(at));
            at += piece;
            arrival.arrived(at);
            if (rng() % 8 == 0)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        arrival.end(at);
    });
    Outcome o = inflate(buffer, c, lib, readSize, &arrival);
    feeder.join();
    return o;
}

std::string payload(size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string s;
    while (s.size() < n) {
        const uint32_t r = rng();
        s += "\x0a\x08" + std::to_string(r % 5000) + std::string(size_t(r % 9), char('a' + r % 5));
    }
    s.resize(n);
    return s;
}

std::string zstdBytes(const std::string &raw, bool contentSize)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, contentSize ? 1 : 0);
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_inBuffer i{raw.data(), raw.size(), 0};
    const size_t left = ZSTD_compressStream2(c, &o, &i, ZSTD_e_end);
    ZSTD_freeCCtx(c);
    if (left != 0)
        qFatal("zstd did not finish");
    out.resize(o.pos);
    return out;
}

// A profile of `functions` functions with random 24-character names, one sample each: its gzip is about as large
// as its string table, which random names do not let shrink much.
std::string largeProfileBytes(int functions)
{
    std::mt19937 rng(5);
    std::string folded;
    const char *hex = "0123456789abcdef";
    for (int f = 0; f < functions; ++f) {
        std::string name = "main.";
        for (int k = 0; k < 24; ++k)
            name += hex[rng() % 16];
        folded += "main;" + name + " " + std::to_string(f % 7 + 1) + "\n";
    }
    test::FoldedProfile spec;
    spec.folded = folded;
    return test::pprofBytes(spec);
}

void writeFile(const QString &path, const std::string &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
        qFatal("cannot write %s", qPrintable(path));
}

}   // namespace

class tst_InputArrival : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inPieces_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("compression");
        QTest::addColumn<QString>("expected");   // "ok" or the error's beginning
        const std::string big = payload(1500000, 1), small = payload(3000, 2);
        const std::string gz = test::gzipBytes(big), zst = zstdBytes(big, false);
        auto row = [](const char *name, const std::string &in, Compression c, const char *expected) {
            QTest::newRow(name) << QByteArray::fromStdString(in) << int(c) << QString::fromLatin1(expected);
        };
        row("gzip", gz, Compression::Gzip, "ok");
        row("gzip, three members", gz + test::gzipBytes(small) + gz, Compression::Gzip, "ok");
        row("gzip, members and zero padding", test::gzipBytes(small) + gz + std::string(5000, '\0'),
            Compression::Gzip, "ok");
        row("gzip, trailing garbage", gz + std::string(3000, '\0') + "x", Compression::Gzip,
            "gzip: unexpected data after the end of the compressed stream");
        row("gzip, truncated", gz.substr(0, gz.size() - 100), Compression::Gzip, "gzip: truncated data ");
        row("gzip, half a member after one", gz + gz.substr(0, gz.size() / 2), Compression::Gzip,
            "gzip: truncated data ");
        row("zstd, no content size", zst, Compression::Zstd, "ok");
        row("zstd, content size", zstdBytes(big, true), Compression::Zstd, "ok");
        row("zstd, two frames", zst + zstdBytes(small, true), Compression::Zstd, "ok");
        row("zstd, truncated", zst.substr(0, zst.size() - 100), Compression::Zstd, "zstd: truncated data ");
        row("zstd, garbage after", zst + "garbage!", Compression::Zstd, "zstd: corrupt data ");
    }

    // Fed in pieces, a stream gives what it gives whole, with each library, in large and in small reads, also where
    // the file announced more bytes than came (a buffer larger than the input: the file shrank).
    void inPieces()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, compression);
        QFETCH(QString, expected);
        const std::string in = input.toStdString();
        const auto c = Compression(compression);
        std::vector<GzipLibrary> libraries = {GzipLibrary::Zlib};
        if (c == Compression::Gzip && gzipLibraryAvailable(GzipLibrary::Isal))
            libraries.push_back(GzipLibrary::Isal);
        unsigned seed = 1;
        for (GzipLibrary lib : libraries) {
            const Outcome whole = inflate(in, c, lib, 1 << 16);
            QCOMPARE(QString::fromStdString(kind(whole.error).empty() ? "ok" : kind(whole.error)), expected);
            for (size_t readSize : {size_t(1) << 18, size_t(4093)}) {
                for (size_t room : {in.size(), in.size() + 70000}) {
                    const Outcome pieces = inflateArriving(in, room, c, lib, readSize, seed++);
                    QCOMPARE(kind(pieces.error), kind(whole.error));
                    if (whole.error.empty()) {
                        QVERIFY(pieces.bytes == whole.bytes);
                        continue;
                    }
                    // Before an error, what a read had inflated is lost with it, so how much came out depends on
                    // where the reads fell; but never a byte other than the stream's.
                    const std::string &shorter = pieces.bytes.size() < whole.bytes.size() ? pieces.bytes : whole.bytes;
                    const std::string &longer = &shorter == &pieces.bytes ? whole.bytes : pieces.bytes;
                    QVERIFY(longer.compare(0, shorter.size(), shorter) == 0);
                }
            }
        }
    }

    // A compressed file of some size is read in two steps: its first 256 KiB, then the rest; a small one, or one
    // that is not compressed, at once.
    void twoSteps()
    {
        QTemporaryDir dir;
        const std::string gz = test::gzipBytes(largeProfileBytes(60000));
        QVERIFY2(gz.size() > (700u << 10), qPrintable(QString::number(gz.size())));
        const QString path = dir.filePath(QStringLiteral("large.pb.gz"));
        writeFile(path, gz);
        std::string name;
        InputBytes bytes = readInputBytes(path.toStdString(), ReadOptions{}, &name);
        QVERIFY(bytes.arrival());
        QCOMPARE(bytes.size(), gz.size());
        InputArrival::State s = bytes.arrival()->now();
        QCOMPARE(s.arrived, size_t(256) << 10);
        QVERIFY(!s.complete);
        QVERIFY(bytes.view().substr(0, s.arrived) == std::string_view(gz).substr(0, s.arrived));
        bytes.readRest();
        s = bytes.arrival()->now();
        QCOMPARE(s.arrived, gz.size());
        QVERIFY(s.complete);
        QVERIFY(bytes.view() == gz);
        bytes.readRest();   // again: nothing more
        QVERIFY(bytes.view() == gz);

        const std::string raw = largeProfileBytes(60000);
        writeFile(path, raw);
        InputBytes plain = readInputBytes(path.toStdString(), ReadOptions{}, &name);
        QVERIFY(!plain.arrival());
        QVERIFY(plain.view() == raw);
        writeFile(path, gz.substr(0, 100000));
        InputBytes small = readInputBytes(path.toStdString(), ReadOptions{}, &name);
        QVERIFY(!small.arrival());
        QCOMPARE(small.size(), size_t(100000));
    }

    // A file that gets shorter after its first part was read: what is there, as a one-step read would have it,
    // and an inflater given it says the stream is truncated.
    void fileShrinks()
    {
        QTemporaryDir dir;
        const std::string gz = test::gzipBytes(largeProfileBytes(60000));
        const QString path = dir.filePath(QStringLiteral("shrinks.pb.gz"));
        writeFile(path, gz);
        std::string name;
        InputBytes bytes = readInputBytes(path.toStdString(), ReadOptions{}, &name);
        QVERIFY(bytes.arrival());
        QVERIFY(QFile::resize(path, 400000));
        Outcome o;
        std::thread inflating([&] { o = inflate(bytes.view(), Compression::Gzip, defaultGzipLibrary(), 1 << 16,
                                                bytes.arrival()); });
        bytes.readRest();
        inflating.join();
        QCOMPARE(bytes.size(), size_t(400000));
        QVERIFY(bytes.view() == std::string_view(gz).substr(0, 400000));
        QCOMPARE(kind(o.error), std::string("gzip: truncated data "));
        QVERIFY2(o.error.find("ends after 400000 bytes") != std::string::npos, o.error.c_str());   // not the 1st size
    }

    // Through the door: a profile from a file read in two steps equals the one read from its bytes in memory.
    void wholeProfile()
    {
        QTemporaryDir dir;
        const std::string raw = largeProfileBytes(60000);
        for (const std::string &file : {test::gzipBytes(raw), zstdBytes(raw, false)}) {
            const QString path = dir.filePath(QStringLiteral("p"));
            writeFile(path, file);
            const auto fromFile = readProfileFile(path.toStdString(), ReadOptions{});
            const auto fromBytes = readProfile(raw, "bytes", ReadOptions{});
            QCOMPARE(fromFile->functions.size(), size_t(60001));
            QVERIFY(fromFile->strings == fromBytes->strings);
            QCOMPARE(fromFile->sampleCount(), fromBytes->sampleCount());
            QCOMPARE(fromFile->total(0), fromBytes->total(0));
            QCOMPARE(fromFile->total(0), int64_t(60000 / 7 * 28 + (1 + 2 + 3)));   // values 1..7 in turn
        }
    }
};

QTEST_GUILESS_MAIN(tst_InputArrival)
#include "tst_inputarrival.moc"
