#include "disasm/Objdump.h"

#include "disasm/ToolRun.h"
#include "io/ReadOptions.h"

#include <QByteArray>

namespace qflame {

std::vector<Instruction> parseObjdump(const QByteArray &text)
{
    std::vector<Instruction> out;
    std::string function, file;
    int64_t line = 0;
    for (const QByteArray &raw : text.split('\n')) {
        if (raw.isEmpty())
            continue;
        if (raw.startsWith(' ')) {   // "  4b2120:\tcmp    0x10(%r14),%rsp"
            const qsizetype colon = raw.indexOf(':');
            if (colon < 0)
                continue;
            bool ok = false;
            const uint64_t address = raw.left(colon).trimmed().toULongLong(&ok, 16);
            if (!ok)
                continue;
            Instruction in;
            in.address = address;
            in.text = raw.mid(colon + 1).trimmed().simplified().toStdString();
            in.function = function;
            in.file = file;
            in.line = line;
            out.push_back(std::move(in));
            continue;
        }
        if (raw.endsWith(">:")) {   // "00000000004b2120 <main.spin>:": a symbol begins
            const qsizetype lt = raw.indexOf('<');
            function = raw.mid(lt + 1, raw.size() - lt - 3).toStdString();
            file.clear();
            line = 0;
            continue;
        }
        if (raw.endsWith("():")) {
            function = raw.left(raw.size() - 3).toStdString();
            continue;
        }
        // "FILE:LINE" or "FILE:LINE (discriminator N)"
        QByteArray loc = raw;
        const qsizetype disc = loc.indexOf(" (discriminator ");
        if (disc > 0)
            loc.truncate(disc);
        const qsizetype colon = loc.lastIndexOf(':');
        if (colon > 0) {
            bool ok = false;
            const int64_t n = loc.mid(colon + 1).toLongLong(&ok);
            if (ok) {
                file = loc.left(colon).toStdString();
                line = n;
            }
        }
    }
    return out;
}

std::vector<Instruction> parseGoObjdump(const QByteArray &text)
{
    std::vector<Instruction> out;
    for (const QByteArray &raw : text.split('\n')) {
        if (!raw.startsWith("  "))   // "TEXT main.spin(SB) /src/main.go" and blank lines
            continue;
        QList<QByteArray> f;
        for (const QByteArray &field : raw.split('\t'))
            if (!field.trimmed().isEmpty())
                f.push_back(field.trimmed());
        if (f.size() < 4 || !f[1].startsWith("0x"))
            continue;
        bool ok = false;
        Instruction in;
        in.address = f[1].mid(2).toULongLong(&ok, 16);
        if (!ok)
            continue;
        const qsizetype colon = f[0].lastIndexOf(':');
        if (colon > 0) {
            in.file = f[0].left(colon).toStdString();   // the base name only
            in.line = f[0].mid(colon + 1).toLongLong();
        }
        in.text = f.mid(3).join(' ').simplified().toStdString();
        out.push_back(std::move(in));
    }
    return out;
}

namespace {

std::vector<Instruction> binutilsObjdump(const BinaryInfo &binary, uint64_t start, uint64_t end)
{
    const QString objdump = findTool(QStringLiteral("objdump"));
    if (objdump.isEmpty())
        throw ProfileError("no objdump on PATH: install binutils to disassemble");
    const ToolOutput r = runTool(objdump, {QStringLiteral("-d"), QStringLiteral("-l"), QStringLiteral("-C"),
                                           QStringLiteral("--no-show-raw-insn"), QStringLiteral("-w"),
                                           QStringLiteral("--start-address=0x") + QString::number(start, 16),
                                           QStringLiteral("--stop-address=0x") + QString::number(end, 16),
                                           QString::fromStdString(binary.path)});
    if (r.exitCode != 0)
        throw ProfileError(binary.path + ": objdump failed: " + r.err.trimmed().left(300).toStdString());
    return parseObjdump(r.out);
}

// go tool objdump BINARY START END: Go's syntax. Empty when it fails (binutils' text is used then).
std::vector<Instruction> goObjdump(const QString &go, const BinaryInfo &binary, uint64_t start, uint64_t end)
{
    try {
        const ToolOutput r = runTool(go, {QStringLiteral("tool"), QStringLiteral("objdump"),
                                          QString::fromStdString(binary.path), QStringLiteral("0x") + QString::number(start, 16),
                                          QStringLiteral("0x") + QString::number(end, 16)});
        if (r.exitCode == 0)
            return parseGoObjdump(r.out);
    } catch (const ProfileError &) {
    }
    return {};
}

}   // namespace

std::vector<Instruction> disassemble(const BinaryInfo &binary, uint64_t start, uint64_t end, Disassembler which)
{
    std::vector<Instruction> gnu = binutilsObjdump(binary, start, end);
    if (which == Disassembler::Binutils || (which == Disassembler::Auto && binary.goBuildId.empty()))
        return gnu;
    const QString go = findGoTool();
    if (go.isEmpty())
        return gnu;
    std::vector<Instruction> goText = goObjdump(go, binary, start, end);
    // Go's text where both decoders agree on every address; binutils' whole otherwise (a decoder's disagreement
    // would move costs between instructions).
    if (goText.size() != gnu.size())
        return gnu;
    for (size_t i = 0; i < gnu.size(); ++i) {
        if (goText[i].address != gnu[i].address)
            return gnu;
    }
    for (size_t i = 0; i < gnu.size(); ++i)
        gnu[i].text = std::move(goText[i].text);
    return gnu;
}

}   // namespace qflame
