// A small syntax highlighter for the source pane: Go and C/C++ keywords, strings, characters, numbers and
// comments (block comments across lines). Enough to read code by, not a parser.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace qflame {

class SourceHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

public:
    enum class Language { Go, Cpp, Other };
    explicit SourceHighlighter(QTextDocument *document);

    // By the file's extension: .go is Go; .c .cc .cpp .cxx .h .hh .hpp .hxx .inl are C/C++; others get only
    // strings, numbers and comments.
    static Language languageOf(const QString &path);
    void setLanguage(Language language);
    void setDark(bool dark);

protected:
    void highlightBlock(const QString &text) override;

private:
    void updateFormats();
    Language m_language = Language::Other;
    bool m_dark = false;
    QRegularExpression m_keywords, m_types;
    QTextCharFormat m_keyword, m_type, m_string, m_comment, m_number;
};

}   // namespace qflame
