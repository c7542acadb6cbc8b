#include "sourceview/SourceHighlighter.h"

#include <QFileInfo>

namespace qflame {

namespace {

const char *kGoKeywords = "break|case|chan|const|continue|default|defer|else|fallthrough|for|func|go|goto|if|"
                          "import|interface|map|package|range|return|select|struct|switch|type|var";
const char *kGoTypes = "bool|byte|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|"
                       "string|uint|uint8|uint16|uint32|uint64|uintptr|any|nil|true|false|iota";
const char *kCppKeywords = "alignas|alignof|auto|break|case|catch|class|const|constexpr|consteval|continue|"
                           "co_await|co_return|co_yield|decltype|default|delete|do|else|enum|explicit|export|"
                           "extern|for|friend|goto|if|inline|mutable|namespace|new|noexcept|operator|private|"
                           "protected|public|return|sizeof|static|static_assert|struct|switch|template|this|"
                           "throw|try|typedef|typename|union|using|virtual|volatile|while|#include|#define|#if|"
                           "#ifdef|#ifndef|#endif|#else|#pragma";
const char *kCppTypes = "bool|char|char8_t|char16_t|char32_t|double|float|int|long|short|signed|unsigned|void|"
                        "wchar_t|size_t|int8_t|int16_t|int32_t|int64_t|uint8_t|uint16_t|uint32_t|uint64_t|"
                        "nullptr|true|false";

QRegularExpression words(const char *alternatives)
{
    return QRegularExpression(QStringLiteral("(?<![\\w#])(?:%1)\\b").arg(QLatin1String(alternatives)));
}

enum BlockState { Normal = 0, InBlockComment = 1, InRawString = 2 };

}   // namespace

SourceHighlighter::SourceHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    updateFormats();
}

SourceHighlighter::Language SourceHighlighter::languageOf(const QString &path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("go"))
        return Language::Go;
    static const QStringList cpp{"c", "cc", "cpp", "cxx", "h", "hh", "hpp", "hxx", "inl", "ipp", "tcc"};
    return cpp.contains(ext) ? Language::Cpp : Language::Other;
}

void SourceHighlighter::setLanguage(Language language)
{
    m_language = language;
    m_keywords = language == Language::Go ? words(kGoKeywords) : language == Language::Cpp ? words(kCppKeywords)
                                                                                            : QRegularExpression();
    m_types = language == Language::Go ? words(kGoTypes) : language == Language::Cpp ? words(kCppTypes)
                                                                                     : QRegularExpression();
    rehighlight();
}

void SourceHighlighter::setDark(bool dark)
{
    m_dark = dark;
    updateFormats();
    rehighlight();
}

void SourceHighlighter::updateFormats()
{
    m_keyword.setForeground(m_dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x80, 0x20, 0x90));
    m_keyword.setFontWeight(QFont::Bold);
    m_type.setForeground(m_dark ? QColor(0x56, 0xb6, 0xc2) : QColor(0x10, 0x60, 0x80));
    m_string.setForeground(m_dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x20, 0x80, 0x20));
    m_comment.setForeground(m_dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x70, 0x70, 0x70));
    m_comment.setFontItalic(true);
    m_number.setForeground(m_dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0xa0, 0x50, 0x00));
}

void SourceHighlighter::highlightBlock(const QString &text)
{
    for (const auto &[re, format] : {std::pair{&m_keywords, &m_keyword}, std::pair{&m_types, &m_type}}) {
        if (re->pattern().isEmpty())
            continue;
        for (auto it = re->globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), *format);
        }
    }
    static const QRegularExpression number(QStringLiteral("\\b(?:0[xX][0-9a-fA-F_]+|\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)\\b"));
    for (auto it = number.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), m_number);
    }
    // Strings and comments last, scanned left to right, so a "//" inside a string stays string and a quote inside
    // a comment stays comment. Go's raw `strings` and C's /* comments */ may span lines (the block state).
    int i = 0;
    const int n = int(text.size());
    int state = previousBlockState() < 0 ? Normal : previousBlockState();
    while (i < n) {
        if (state == InBlockComment || state == InRawString) {
            const QString close = state == InBlockComment ? QStringLiteral("*/") : QStringLiteral("`");
            const int end = int(text.indexOf(close, i));
            const int stop = end < 0 ? n : end + int(close.size());
            setFormat(i, stop - i, state == InBlockComment ? m_comment : m_string);
            i = stop;
            if (end >= 0)
                state = Normal;
            continue;
        }
        const QChar c = text[i];
        if (c == QLatin1Char('/') && i + 1 < n && text[i + 1] == QLatin1Char('/')) {
            setFormat(i, n - i, m_comment);
            break;
        }
        if (c == QLatin1Char('/') && i + 1 < n && text[i + 1] == QLatin1Char('*')) {
            state = InBlockComment;
            setFormat(i, 2, m_comment);
            i += 2;
            continue;
        }
        if (c == QLatin1Char('`') && m_language == Language::Go) {
            state = InRawString;
            setFormat(i, 1, m_string);
            ++i;
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            int j = i + 1;
            while (j < n && text[j] != c)
                j += text[j] == QLatin1Char('\\') ? 2 : 1;
            const int stop = std::min(j + 1, n);
            setFormat(i, stop - i, m_string);
            i = stop;
            continue;
        }
        ++i;
    }
    setCurrentBlockState(state);
}

}   // namespace qflame
