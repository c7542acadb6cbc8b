// Regex (io/Regex.h): PCRE2 without Qt, for the code `qflame top` runs. Its answers are checked by hand (code points,
// bytes, the U+FFFD of invalid UTF-8 as Go reads it, groups, errors) and against QRegularExpression, the engine it
// replaced, on every pattern and text of a table: the filters, the legacy formats and the time ranges matched with
// Qt's before, and must match the same now.
#include "io/Regex.h"

#include <QRegularExpression>
#include <QTest>

#include <string>
#include <thread>
#include <vector>

using namespace qflame;

namespace {

QString latin1(std::string_view s)
{
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

}   // namespace

class tst_Regex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void codePointsAndBytes_data();
    void codePointsAndBytes();
    void groups();
    void errors_data();
    void errors();
    void validUtf8_data();
    void validUtf8();
    void escaped();
    void noPattern();
    void sameAsQRegularExpression();
    void threads();
};

void tst_Regex::codePointsAndBytes_data()
{
    QTest::addColumn<QByteArray>("pattern");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("utf8");
    QTest::addColumn<bool>("bytes");
    QTest::newRow("anywhere") << QByteArray("b+c") << QByteArray("abbcd") << true << true;
    QTest::newRow("anchored") << QByteArray("^bc") << QByteArray("abc") << false << false;
    // "é" is one code point in UTF-8, two characters read byte by byte
    QTest::newRow("é one char") << QByteArray("^.$") << QByteArray("\xC3\xA9") << true << false;
    QTest::newRow("é two bytes") << QByteArray("^..$") << QByteArray("\xC3\xA9") << false << true;
    // a byte that is not UTF-8 is one U+FFFD, as Go's utf8.DecodeRune reads it
    QTest::newRow("0xff one char") << QByteArray("^.$") << QByteArray("\xFF") << true << true;
    QTest::newRow("0xff is U+FFFD") << QByteArray("^\xEF\xBF\xBD$") << QByteArray("\xFF") << true << false;
    QTest::newRow("cut sequence: two") << QByteArray("^a..b$") << QByteArray("a\xE2\x82" "b") << true << true;
    QTest::newRow("overlong: two") << QByteArray("^..$") << QByteArray("\xC0\xAF") << true << true;
    QTest::newRow("surrogate: three") << QByteArray("^...$") << QByteArray("\xED\xA0\x80") << true << true;
    QTest::newRow("emoji: one") << QByteArray("^.$") << QByteArray("\xF0\x9F\x98\x80") << true << false;
    QTest::newRow("past U+10FFFF: four") << QByteArray("^....$") << QByteArray("\xF4\x90\x80\x80") << true << true;
    // \w is ASCII in both (no PCRE2_UCP, as QRegularExpression's default)
    QTest::newRow("\\w ASCII") << QByteArray("^\\w+$") << QByteArray("f_1") << true << true;
    QTest::newRow("\\w not é") << QByteArray("^\\w+$") << QByteArray("f\xC3\xA9") << false << false;
    QTest::newRow("NUL") << QByteArray("a\\x00b") << QByteArray("a\0b", 3) << true << true;
}

void tst_Regex::codePointsAndBytes()
{
    QFETCH(QByteArray, pattern);
    QFETCH(QByteArray, text);
    QFETCH(bool, utf8);
    QFETCH(bool, bytes);
    const std::string_view t(text.constData(), size_t(text.size()));
    const std::string_view p(pattern.constData(), size_t(pattern.size()));
    QCOMPARE(Regex(p).matches(t), utf8);
    QCOMPARE(Regex(p, Regex::Text::Bytes).matches(t), bytes);
}

void tst_Regex::groups()
{
    const std::string text = "heap profile: 1: 2 [3: 4] @ heap/1024";
    const Regex re(R"(heap profile: *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\] *@ *(heap[_a-z0-9]*)/?(\d*)(x)?)");
    const RegexMatch m = re.match(text);
    QVERIFY(m.hasMatch());
    QCOMPARE(std::string(m.captured(0)), text);
    QCOMPARE(std::string(m.captured(1)), std::string("1"));
    QCOMPARE(std::string(m.captured(5)), std::string("heap"));
    QCOMPARE(std::string(m.captured(6)), std::string("1024"));
    QVERIFY(m.captured(7).empty());   // did not take part
    QCOMPARE(m.capturedEnd(7), size_t(0));
    QVERIFY(m.captured(8).empty());   // no such group
    QCOMPARE(m.capturedEnd(), text.size());
    QCOMPARE(m.capturedEnd(2), size_t(18));
    // the views point into the subject
    QCOMPARE(m.captured(1).data(), text.data() + 14);
    // with replaced bytes, into the match's own text
    const std::string bad = "x\xFFy";
    const RegexMatch r = Regex("x(.)y").match(bad);
    QCOMPARE(std::string(r.captured(1)), std::string("\xEF\xBF\xBD"));
    QCOMPARE(std::string(r.text()), std::string("x\xEF\xBF\xBDy"));
    const RegexMatch none = Regex("z").match(text);
    QVERIFY(!none.hasMatch());
    QVERIFY(none.captured(0).empty());
}

void tst_Regex::errors_data()
{
    QTest::addColumn<QByteArray>("pattern");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("offset");
    QTest::newRow("paren") << QByteArray("main(") << "missing closing parenthesis" << 5;
    QTest::newRow("class") << QByteArray("[a") << "missing terminating ] for character class" << 2;
    QTest::newRow("quantifier") << QByteArray("*a") << "quantifier does not follow a repeatable item" << 0;
}

void tst_Regex::errors()
{
    QFETCH(QByteArray, pattern);
    QFETCH(QString, message);
    QFETCH(int, offset);
    const Regex re(pattern.toStdString());
    QVERIFY(!re.isValid());
    QCOMPARE(QString::fromStdString(re.errorString()), message);
    QCOMPARE(re.errorOffset(), size_t(offset));
    QVERIFY(!re.matches("main(") && !re.matches(""));
    // QRegularExpression said the same (tst_filters and tst_clifilters print these lines)
    const QRegularExpression qt(QString::fromUtf8(pattern));
    QCOMPARE(qt.errorString(), message);
    QCOMPARE(qt.patternErrorOffset(), offset);
}

void tst_Regex::validUtf8_data()
{
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QByteArray>("out");
    QTest::newRow("ascii") << QByteArray("abc") << QByteArray("abc");
    const QByteArray valid("f\xC3\xBCr \xE8\xA8\x88 \xF0\x9F\x94\xA5");
    QTest::newRow("valid") << valid << valid;
    QTest::newRow("lone continuation") << QByteArray("a\x80" "b") << QByteArray("a\xEF\xBF\xBD" "b");
    QTest::newRow("cut at the end") << QByteArray("a\xE2\x82") << QByteArray("a\xEF\xBF\xBD\xEF\xBF\xBD");
    QTest::newRow("overlong E0") << QByteArray("\xE0\x80\x80") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    QTest::newRow("C1") << QByteArray("\xC1\xBF") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD");
    QTest::newRow("F5") << QByteArray("\xF5\x80\x80\x80") << QByteArray(
        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    QTest::newRow("U+10FFFF") << QByteArray("\xF4\x8F\xBF\xBF") << QByteArray("\xF4\x8F\xBF\xBF");
    QTest::newRow("U+D7FF") << QByteArray("\xED\x9F\xBF") << QByteArray("\xED\x9F\xBF");
}

void tst_Regex::validUtf8()
{
    QFETCH(QByteArray, in);
    QFETCH(QByteArray, out);
    QCOMPARE(QByteArray::fromStdString(qflame::validUtf8(in.toStdString())), out);
    QCOMPARE(isValidUtf8(in.toStdString()), in == out);
}

void tst_Regex::escaped()
{
    const std::string name = "main.(*T).f[...](a|b)^$\\ \xC3\xA9_1";
    const std::string pattern = "^" + regexEscaped(name) + "$";
    QVERIFY(Regex(pattern).matches(name));
    QVERIFY(!Regex(pattern).matches(name + "x"));
    QVERIFY(!Regex(pattern).matches("main.x*T).f[...](a|b)^$\\ \xC3\xA9_1"));
    const std::string withNul("a\0b", 3);
    QVERIFY(Regex("^" + regexEscaped(withNul) + "$").matches(withNul));
    QCOMPARE(regexEscaped("a_Z9"), std::string("a_Z9"));
    QCOMPARE(regexEscaped("a.b"), std::string("a\\.b"));
}

void tst_Regex::noPattern()
{
    const Regex none;
    QVERIFY(!none.isValid());
    QVERIFY(!none.matches(""));
    QVERIFY(!none.match("a").hasMatch());
    QVERIFY(Regex("").matches("anything"));   // the empty pattern matches everything, as in Go
}

void tst_Regex::sameAsQRegularExpression()
{
    // Patterns as the filters, the thread option and the legacy formats use them, and texts with multibyte and
    // broken UTF-8. Utf8 mode against QRegularExpression on QString::fromUtf8 (the filters' way before), Bytes
    // mode against it on Latin-1 (the legacy formats' way).
    const std::vector<std::string> patterns = {
        "main", "^main$", "^runtime\\.", "(?i)GC", "f.r", "\\w+\\.\\w+", "[[:xdigit:]]+", "\\bfoo\\b", "a|b$",
        "^.{3}$", "(\\d+): *(-?\\d+)", "^[^\\[\\]]+:[0-9]+\\]", "x\\s+y", "\\S+$", "(?m)^b", "$", "\\Aa", "é"};
    const std::vector<std::string> texts = {
        "main", "main.main", "runtime.gcBgMarkWorker", "f\xC3\xBCr", "x \t y", "a\nb", "a\n", "12: -34",
        "I0101 12:00:00 file.cc:12] 0x1-0x2", "deadBEEF", "foo.bar", "abc", "\xC3\xA9t\xC3\xA9", "\xFF\xFE",
        "x\xE2\x82y", "", "caf\xC3\xA9"};
    int compared = 0;
    for (const std::string &p : patterns) {
        const Regex utf8(p), bytes(p, Regex::Text::Bytes);
        const QRegularExpression qtUtf8(QString::fromStdString(p)), qtBytes(latin1(p));
        QVERIFY(utf8.isValid() && bytes.isValid() && qtUtf8.isValid() && qtBytes.isValid());
        for (const std::string &t : texts) {
            const QRegularExpressionMatch qu = qtUtf8.match(QString::fromStdString(t));
            const RegexMatch u = utf8.match(t);
            QVERIFY2(u.hasMatch() == qu.hasMatch(), (p + " on " + t).c_str());
            if (qu.hasMatch())
                QCOMPARE(QString::fromStdString(std::string(u.captured(0))), qu.captured(0));
            const QRegularExpressionMatch qb = qtBytes.match(latin1(t));
            const RegexMatch b = bytes.match(t);
            QVERIFY2(b.hasMatch() == qb.hasMatch(), (p + " on bytes " + t).c_str());
            if (qb.hasMatch())
                QCOMPARE(latin1(b.captured(0)), qb.captured(0));
            ++compared;
        }
    }
    QCOMPARE(compared, int(patterns.size() * texts.size()));
}

void tst_Regex::threads()
{
    // One compiled pattern, matched from two threads at once (each thread has its own match data).
    const Regex re("^(\\w+)\\.(\\w+)$");
    std::vector<int> hits(2, 0);
    std::vector<std::thread> workers;
    for (int w = 0; w < 2; ++w)
        workers.emplace_back([&, w] {
            for (int i = 0; i < 20000; ++i) {
                const std::string name = "pkg" + std::to_string(i) + (i % 2 ? ".f" : " f");
                const RegexMatch m = re.match(name);
                if (m.hasMatch() && m.captured(2) == "f" && m.captured(1) == "pkg" + std::to_string(i))
                    ++hits[size_t(w)];
            }
        });
    for (std::thread &t : workers)
        t.join();
    QCOMPARE(hits[0], 10000);
    QCOMPARE(hits[1], 10000);
}

QTEST_GUILESS_MAIN(tst_Regex)
#include "tst_regex.moc"
