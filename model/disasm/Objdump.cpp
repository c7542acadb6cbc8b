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

std::vector<Instruction> disassemble(const BinaryInfo &binary, uint64_t start, uint64_t end)
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

}   // namespace qflame
