// The two gzip libraries (io/Inflater.h: ISA-L where built with it, zlib elsewhere) must accept and refuse the same
// streams and produce the same bytes: every input here goes through both, in large and in tiny reads, and the
// outcomes are compared. Damaged streams must be refused by both with the same kind of error (corrupt, truncated,
// trailing data, over the cap); the byte position in the message may differ (ISA-L reads ahead in larger steps).
#include "InflateOutcome.h"
#include "ProfileFactory.h"
#include "io/Compression.h"
#include "io/Inflater.h"
#include "io/InflatingStream.h"
#include "SharedCorpus.h"

#include <QtTest>

#include <zlib.h>
#include <zstd.h>

#include <random>

using namespace qflame;

namespace {

using Outcome = test::InflateOutcome;

Outcome inflateWith(GzipLibrary library, const std::string &in, size_t readSize, uint64_t cap = 1u << 30)
{
    return test::inflateAll(in, Compression::Gzip, library, readSize, cap);
}

// Raw deflate of `raw` with zlib, for hand-made gzip headers.
std::string deflateRaw(const std::string &raw, int level = 6)
{
    return test::deflateBytes(raw, -15, level);
}

void putLe32(std::string &s, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        s.push_back(char(v >> (8 * i)));
}

// A gzip member with the given flag byte and its optional header fields (RFC 1952).
std::string member(const std::string &raw, uint8_t flags)
{
    std::string h = {char(0x1f), char(0x8b), 8, char(flags), 0, 0, 0, 0, 0, 3};
    if (flags & 4) {   // FEXTRA: a 6-byte subfield
        h += std::string{6, 0, 'A', 'B', 2, 0, 'x', 'y'};
    }
    if (flags & 8)
        h += std::string("profile.pb") + '\0';
    if (flags & 16)
        h += std::string("a comment") + '\0';
    if (flags & 2) {
        const uint32_t crc = uint32_t(crc32(0, reinterpret_cast<const Bytef *>(h.data()), uInt(h.size())));
        h.push_back(char(crc & 0xff));
        h.push_back(char(crc >> 8 & 0xff));
    }
    h += deflateRaw(raw);
    putLe32(h, uint32_t(crc32(0, reinterpret_cast<const Bytef *>(raw.data()), uInt(raw.size()))));
    putLe32(h, uint32_t(raw.size()));
    return h;
}

// Something like an inflated profile: repetitive varints with some noise.
std::string payload(size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string s;
    s.reserve(n);
    while (s.size() < n) {
        const uint32_t r = rng();
        s.push_back(char(0x0a));
        s.push_back(char(r % 7 + 2));
        for (int i = 0; i < int(r % 7 + 2) && s.size() < n; ++i)
            s.push_back(char(rng() % 3 == 0 ? rng() : i));
    }
    s.resize(n);
    return s;
}

}   // namespace

class TestInflaters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!gzipLibraryAvailable(GzipLibrary::Isal))
            QSKIP("built without ISA-L (QFLAME_WITH_ISAL=OFF): zlib is the only gzip library");
    }

    void sameOutcome_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("kind");   // the expected outcome, which both must give
        const std::string big = payload(3u << 20, 1), small = payload(1000, 2);
        const std::string gz = test::gzipBytes(big);
        auto row = [](const char *name, const std::string &in, const char *kind) {
            QTest::newRow(name) << QByteArray::fromStdString(in) << QString::fromLatin1(kind);
        };
        row("one member", gz, "ok");
        row("empty payload", test::gzipBytes(std::string()), "ok");
        row("one byte", test::gzipBytes("x"), "ok");
        row("stored blocks (level 0)", member(big.substr(0, 200000), 0).replace(10, std::string::npos,
            deflateRaw(big.substr(0, 200000), 0) + [&] {
                std::string t;
                const std::string part = big.substr(0, 200000);
                putLe32(t, uint32_t(crc32(0, reinterpret_cast<const Bytef *>(part.data()), uInt(part.size()))));
                putLe32(t, uint32_t(part.size()));
                return t;
            }()), "ok");
        row("three members", gz + test::gzipBytes(small) + gz, "ok");
        row("members and zero padding", test::gzipBytes(small) + gz + std::string(512, '\0'), "ok");
        row("empty members", test::gzipBytes("") + test::gzipBytes(small) + test::gzipBytes(""), "ok");
        row("header fields", member(small, 4 | 8 | 16), "ok");
        row("header crc", member(small, 2 | 8), "ok");
        row("header fields, two members", member(small, 8) + member(big, 4 | 16), "ok");
        row("trailing garbage", gz + "garbage", "gzip: unexpected data after the end of the compressed stream");
        row("garbage after padding", gz + std::string(8, '\0') + "x",
            "gzip: unexpected data after the end of the compressed stream");
        row("half a member after one", gz + gz.substr(0, gz.size() / 2), "gzip: truncated data ");
        row("truncated in the data", gz.substr(0, gz.size() / 2), "gzip: truncated data ");
        row("truncated in the trailer", gz.substr(0, gz.size() - 3), "gzip: truncated data ");
        row("truncated in the header", gz.substr(0, 6), "gzip: truncated data ");
        row("truncated in the file name", member(small, 8).substr(0, 14), "gzip: truncated data ");
        std::string badCrc = gz;
        badCrc[badCrc.size() - 6] ^= 0x40;
        row("wrong crc", badCrc, "gzip: corrupt data ");
        std::string badLength = gz;
        badLength[badLength.size() - 2] ^= 0x01;
        row("wrong length", badLength, "gzip: corrupt data ");
        std::string badMethod = gz;
        badMethod[2] = 7;
        row("not deflate", badMethod, "gzip: corrupt data ");
        // Reserved flag bits (0xe0): zlib stops at the header; ISA-L used to read on and call it truncated
        // (fuzz_pprof's find, its header 1f 8b 08 ff). In the first member and in a later one.
        row("reserved header flags", member(small, 0xff & ~2), "gzip: corrupt data ");
        row("reserved flags in the second member", gz + member(small, 0x20), "gzip: corrupt data ");
        std::string badHeaderCrc = member(small, 2);
        badHeaderCrc[10] ^= 1;
        row("wrong header crc", badHeaderCrc, "gzip: corrupt data ");
        std::string badBlock = gz;
        badBlock[10] = char(0xff);   // block type 3 (reserved) in the first block's header bits
        row("reserved block type", badBlock, "gzip: corrupt data ");
    }

    // Each input in one large read and in reads of a few bytes: same bytes, same kind of outcome.
    void sameOutcome()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, kind);
        const std::string in = input.toStdString();
        for (size_t readSize : {size_t(1) << 20, size_t(7), size_t(65536)}) {
            const Outcome z = inflateWith(GzipLibrary::Zlib, in, readSize);
            const Outcome i = inflateWith(GzipLibrary::Isal, in, readSize);
            QCOMPARE(z.kind(), kind);
            QCOMPARE(i.kind(), kind);
            if (kind == QLatin1String("ok"))
                QVERIFY(z.bytes == i.bytes);
        }
    }

    // Damage anywhere: every single-byte change of a small member and a sample of a large one's. Both refuse or
    // both accept (then with the same bytes; a changed byte in the header's mtime or OS field is harmless).
    void damagedStreams()
    {
        const std::string small = member(payload(3000, 3), 8);
        const std::string large = test::gzipBytes(payload(400000, 4));
        std::mt19937 rng(31);
        int refused = 0, cases = 0;
        auto check = [&](const std::string &in, size_t pos) {
            const Outcome z = inflateWith(GzipLibrary::Zlib, in, 4096);
            const Outcome i = inflateWith(GzipLibrary::Isal, in, 4096);
            ++cases;
            refused += !z.error.empty();
            QVERIFY2(z.kind() == i.kind(), qPrintable(QStringLiteral("byte %1: zlib \"%2\", ISA-L \"%3\"")
                                                           .arg(pos).arg(QString::fromStdString(z.error),
                                                                         QString::fromStdString(i.error))));
            if (z.error.empty())
                QVERIFY(z.bytes == i.bytes);
        };
        for (size_t pos = 0; pos < small.size(); ++pos) {
            std::string d = small;
            d[pos] = char(d[pos] ^ (1 << (pos % 8)));
            check(d, pos);
            if (QTest::currentTestFailed())
                return;
        }
        for (int k = 0; k < 300; ++k) {
            std::string d = large;
            const size_t pos = rng() % d.size();
            d[pos] = char(rng());
            check(d, pos);
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(refused > cases / 2);   // the damage was seen, not only survived
    }

    // The cap holds with either library, however the reads fall.
    void cap()
    {
        const std::string gz = test::gzipBytes(std::string(5u << 20, 'a')) + test::gzipBytes(std::string(10, 'b'));
        for (GzipLibrary lib : {GzipLibrary::Zlib, GzipLibrary::Isal}) {
            const Outcome atCap = inflateWith(lib, gz, 4096, (5u << 20) + 10);
            QCOMPARE(atCap.kind(), QStringLiteral("ok"));
            const Outcome over = inflateWith(lib, gz, 4096, (5u << 20) + 9);
            QVERIFY2(over.error.find("inflates to more than the size limit") != std::string::npos, over.error.c_str());
            QVERIFY(over.bytes.size() <= (5u << 20) + 9 + 4096);
        }
    }

    // The size the decoder reserves for: announced by gzip's trailer and by a zstd frame that states its content
    // size; estimated from the first blocks where zstd was written without it (`zstd --no-content-size`), within
    // [size, 2 x size] so that the arrays neither double at the end nor reserve far too much.
    void sizeEstimate()
    {
        std::mt19937 rng(7);
        std::string raw;
        while (raw.size() < (12u << 20)) {   // varint-like runs: compresses about 4:1, as profiles do
            const uint32_t v = rng() % 4096;
            raw += "\x0a\x08" + std::to_string(v) + char(v & 0x7f) + std::string(size_t(v % 7), char('a' + v % 3));
        }
        const std::string gz = test::deflateBytes(raw, 31, 6);
        QCOMPARE(InflatingStream(gz, Compression::Gzip, 1u << 30).sizeEstimate(), uint64_t(raw.size()));
        for (int contentSize : {1, 0}) {
            ZSTD_CCtx *c = ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, contentSize);
            std::string zst(ZSTD_compressBound(raw.size()), '\0');
            ZSTD_outBuffer out{zst.data(), zst.size(), 0};
            ZSTD_inBuffer in{raw.data(), raw.size(), 0};
            QCOMPARE(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end), size_t(0));
            ZSTD_freeCCtx(c);
            zst.resize(out.pos);
            InflatingStream s(zst, Compression::Zstd, 1u << 30, InflatingStream::kDefaultBlockSize,
                              InflatingStream::Threading::Reader);
            if (contentSize) {
                QCOMPARE(s.sizeEstimate(), uint64_t(raw.size()));
                continue;
            }
            QCOMPARE(s.sizeHint(), uint64_t(0));
            // No size announced: the frame's bound (ZSTD_decompressBound), known before anything is inflated.
            // zstd at level 3 writes whole blocks of 128 KiB but the last, so it is the size rounded up to one.
            constexpr uint64_t kBlock = 128u << 10;
            QCOMPARE(s.sizeEstimate(), (uint64_t(raw.size()) + kBlock - 1) / kBlock * kBlock);
        }
    }

    // The real profiles of tests/data and the corpus, through the streaming reader with both libraries.
    void realProfiles()
    {
        QStringList files;
        for (const QString &dir :
             {QStringLiteral(QFLAME_TEST_DATA), qflame::test::sharedPath(QStringLiteral("corpus"))})
            for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.gz")}, QDir::Files))
                files << f.absoluteFilePath();
        QVERIFY(files.size() >= 5);
        for (const QString &path : files) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const std::string in = f.readAll().toStdString();
            if (sniffCompression(in) != Compression::Gzip)   // named .gz, but not compressed
                continue;
            std::string outs[2];
            int k = 0;
            for (GzipLibrary lib : {GzipLibrary::Zlib, GzipLibrary::Isal}) {
                InflatingStream s(in, Compression::Gzip, 1u << 30, InflatingStream::kDefaultBlockSize,
                                  InflatingStream::Threading::Background, lib);
                outs[k++] = s.readAll();
            }
            QVERIFY2(outs[0] == outs[1], qPrintable(path));
            QVERIFY2(!outs[0].empty(), qPrintable(path));
        }
    }
};

QTEST_GUILESS_MAIN(TestInflaters)
#include "tst_inflaters.moc"
