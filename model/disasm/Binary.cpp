#include "disasm/Binary.h"

#include "disasm/ToolRun.h"
#include "io/ReadOptions.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace qflame {

namespace {

QString tool(const char *name)
{
    const QString path = findTool(QString::fromLatin1(name));
    if (path.isEmpty())
        throw ProfileError(std::string("no ") + name + " on PATH: install binutils to disassemble");
    return path;
}

// readelf -n's notes: GNU's "Build ID: HEX", Go's description data (hex bytes of the ASCII build id).
void readNotes(BinaryInfo &b)
{
    const ToolOutput r = runTool(tool("readelf"), {QStringLiteral("-n"), QString::fromStdString(b.path)},
                                 ToolLimits{30000, 4 << 20});
    bool inGo = false;
    for (const QByteArray &raw : r.out.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.startsWith("Build ID:"))
            b.gnuBuildId = line.mid(9).trimmed().toStdString();
        else if (line.startsWith("Go ") || line.startsWith("Go\t"))
            inGo = true;
        else if (inGo && line.startsWith("description data:")) {
            for (const QByteArray &hex : line.mid(17).simplified().split(' '))
                if (!hex.isEmpty())
                    b.goBuildId += char(hex.toInt(nullptr, 16));
            inGo = false;
        } else if (line.startsWith("Owner") || line.startsWith("Displaying"))
            inGo = false;
    }
}

// readelf -lW's LOAD lines: "LOAD 0x001000 0x0000000000401000 0x0000000000401000 0x0003dd 0x0003dd R E 0x1000".
void readSegments(BinaryInfo &b)
{
    const ToolOutput r = runTool(tool("readelf"), {QStringLiteral("-lW"), QString::fromStdString(b.path)},
                                 ToolLimits{30000, 4 << 20});
    for (const QByteArray &raw : r.out.split('\n')) {
        const QList<QByteArray> f = raw.simplified().split(' ');
        if (f.size() < 8 || f[0] != "LOAD" || !raw.contains(" E "))
            continue;
        BinaryInfo::Segment s;
        s.offset = f[1].toULongLong(nullptr, 16);
        s.vaddr = f[2].toULongLong(nullptr, 16);
        s.fileSize = f[4].toULongLong(nullptr, 16);
        b.executable.push_back(s);
    }
}

std::string describe(const BinaryInfo &b)
{
    if (!b.gnuBuildId.empty())
        return b.gnuBuildId;
    return b.goBuildId.empty() ? std::string("none") : b.goBuildId;
}

std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}   // namespace

BinaryInfo readBinaryInfo(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!QFileInfo(f).isFile())
        throw ProfileError(path + ": binary not found");
    if (!f.open(QIODevice::ReadOnly))
        throw ProfileError(path + ": cannot read the binary: " + f.errorString().toStdString());
    const QByteArray head = f.read(18);
    if (head.size() < 18 || !head.startsWith("\x7f" "ELF"))
        throw ProfileError(path + ": not an ELF binary");
    BinaryInfo b;
    b.path = QFileInfo(f).absoluteFilePath().toStdString();
    const bool little = head[5] == 1;
    const int type = little ? (uint8_t(head[16]) | uint8_t(head[17]) << 8) : (uint8_t(head[17]) | uint8_t(head[16]) << 8);
    b.sharedObject = type == 3;   // ET_DYN
    readNotes(b);
    readSegments(b);
    return b;
}

uint64_t BinaryInfo::offsetToAddress(uint64_t offset) const
{
    for (const Segment &s : executable)
        if (offset >= s.offset && offset - s.offset < s.fileSize)
            return offset - s.offset + s.vaddr;
    return offset;
}

bool BinaryInfo::inExecutableOffsets(uint64_t offset) const
{
    for (const Segment &s : executable)
        if (offset >= s.offset && offset - s.offset < s.fileSize)
            return true;
    return false;
}

bool BinaryInfo::inExecutableAddresses(uint64_t address) const
{
    for (const Segment &s : executable)
        if (address >= s.vaddr && address - s.vaddr < s.fileSize)
            return true;
    return false;
}

bool buildIdMatches(const BinaryInfo &b, const std::string &buildId)
{
    return buildId.empty() || buildId == b.gnuBuildId || buildId == b.goBuildId;
}

BinaryInfo locateBinary(const std::string &mappingFile, const std::string &buildId, const BinarySearch &search)
{
    std::vector<std::string> folders = search.folders;
    if (!search.explicitPath.empty()) {
        if (!QFileInfo(QString::fromStdString(search.explicitPath)).isDir()) {
            BinaryInfo b = readBinaryInfo(search.explicitPath);
            if (!buildIdMatches(b, buildId))
                throw ProfileError(search.explicitPath + ": build id " + describe(b) + " does not match the profile's " +
                                   buildId + " (" + mappingFile + "): not the binary that was profiled");
            return b;
        }
        folders.insert(folders.begin(), search.explicitPath);
    }
    std::string mismatch;
    // The mapping's own path first, then each folder: the same base name, then any file of the build id.
    std::vector<std::string> candidates;
    if (!mappingFile.empty() && search.explicitPath.empty())
        candidates.push_back(mappingFile);
    for (const std::string &folder : folders)
        candidates.push_back(folder + "/" + baseName(mappingFile));
    for (const std::string &c : candidates) {
        if (!QFileInfo(QString::fromStdString(c)).isFile())
            continue;
        BinaryInfo b = readBinaryInfo(c);
        if (buildIdMatches(b, buildId))
            return b;
        mismatch = c + " has build id " + describe(b);
    }
    if (!buildId.empty()) {
        for (const std::string &folder : folders) {
            const QDir dir(QString::fromStdString(folder));
            const QStringList files = dir.entryList(QDir::Files | QDir::Executable, QDir::Name);
            for (qsizetype i = 0; i < files.size() && i < 2000; ++i) {
                QFile f(dir.filePath(files[i]));
                if (!f.open(QIODevice::ReadOnly) || !f.read(4).startsWith("\x7f" "ELF"))
                    continue;
                BinaryInfo b = readBinaryInfo(dir.filePath(files[i]).toStdString());
                if (buildIdMatches(b, buildId))
                    return b;
            }
        }
    }
    const std::string name = mappingFile.empty() ? std::string("the profile's binary (its mapping names no file)")
                                                 : mappingFile;
    if (!mismatch.empty())
        throw ProfileError(mismatch + ", the profile's " + name + " had " + buildId +
                           ": not the binary that was profiled (give the right one with --binary)");
    throw ProfileError(name + ": binary not found" + (buildId.empty() ? std::string() : " (build id " + buildId + ")") +
                       ": give it with --binary FILE or a folder of binaries");
}

std::vector<Symbol> readSymbols(const BinaryInfo &binary)
{
    const ToolOutput r = runTool(tool("nm"), {QStringLiteral("-n"), QStringLiteral("-S"), QStringLiteral("--defined-only"),
                                              QString::fromStdString(binary.path)});
    std::vector<Symbol> out;
    struct Raw {
        uint64_t address, size;
        std::string name;
    };
    std::vector<Raw> raws;
    for (const QByteArray &line : r.out.split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        bool ok = false;
        if (f.size() == 4) {   // address size type name
            const uint64_t a = f[0].toULongLong(&ok, 16), s = f[1].toULongLong(nullptr, 16);
            if (ok && (f[2] == "T" || f[2] == "t" || f[2] == "W" || f[2] == "w" || f[2] == "i"))
                raws.push_back({a, s, f[3].toStdString()});
        } else if (f.size() == 3) {   // address type name
            const uint64_t a = f[0].toULongLong(&ok, 16);
            if (ok && (f[1] == "T" || f[1] == "t" || f[1] == "W" || f[1] == "w" || f[1] == "i"))
                raws.push_back({a, 0, f[2].toStdString()});
        }
    }
    if (raws.empty())
        throw ProfileError(binary.path + ": no symbols (a stripped binary): give the unstripped one with --binary");
    for (size_t i = 0; i < raws.size(); ++i) {
        if (!out.empty() && out.back().start == raws[i].address) {
            out.back().names.push_back(raws[i].name);
            out.back().end = std::max(out.back().end, raws[i].address + raws[i].size);
            continue;
        }
        Symbol s;
        s.names = {raws[i].name};
        s.start = raws[i].address;
        s.end = raws[i].address + raws[i].size;
        out.push_back(std::move(s));
    }
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i].end <= out[i].start)
            out[i].end = i + 1 < out.size() ? out[i + 1].start : out[i].start + 1;
    return out;
}

}   // namespace qflame
