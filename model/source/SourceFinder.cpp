#include "source/SourceFinder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <cstring>

namespace qflame {

namespace {

std::string baseName(const std::string &dir)
{
    // Go's filepath.Base: trailing slashes dropped; "" is "."; only slashes is "/".
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/')
        d.pop_back();
    if (d.empty())
        return ".";
    const size_t slash = d.rfind('/');
    return slash == std::string::npos || d == "/" ? d : d.substr(slash + 1);
}

std::string parentOf(const std::string &dir)
{
    const std::string p = QFileInfo(QString::fromStdString(dir)).path().toStdString();   // "/a/b" -> "/a"
    return p;
}

std::string join(const std::string &dir, const std::string &path)
{
    return QDir::cleanPath(QString::fromStdString(dir + "/" + path)).toStdString();
}

bool isFile(const std::string &path)
{
    return QFileInfo(QString::fromStdString(path)).isFile();
}

std::string goEnv(const char *name)
{
    QString go = QStandardPaths::findExecutable(QStringLiteral("go"));
    if (go.isEmpty()) {
        const QStringList debian = QDir(QStringLiteral("/usr/lib")).entryList({QStringLiteral("go-*")}, QDir::Dirs,
                                                                             QDir::Name | QDir::Reversed);
        for (const QString &d : debian)
            if (QFileInfo(QStringLiteral("/usr/lib/") + d + QStringLiteral("/bin/go")).isExecutable()) {
                go = QStringLiteral("/usr/lib/") + d + QStringLiteral("/bin/go");
                break;
            }
    }
    if (go.isEmpty())
        return {};
    QProcess p;
    p.start(go, {QStringLiteral("env"), QString::fromLatin1(name)});
    if (!p.waitForFinished(10000)) {   // a hung go command must not hang a listing
        p.kill();
        p.waitForFinished();
        return {};
    }
    return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput()).trimmed().toStdString() : std::string();
}

}   // namespace

SourcePaths defaultSourcePaths()
{
    SourcePaths paths;
    paths.goroot = qEnvironmentVariable("GOROOT").toStdString();
    if (paths.goroot.empty())
        paths.goroot = goEnv("GOROOT");
    paths.moduleCache = qEnvironmentVariable("GOMODCACHE").toStdString();
    if (paths.moduleCache.empty()) {
        const QString gopath = qEnvironmentVariable("GOPATH").split(QLatin1Char(':')).value(0);
        paths.moduleCache = (gopath.isEmpty() ? QDir::homePath() + QStringLiteral("/go") : gopath).toStdString() +
                            "/pkg/mod";
    }
    paths.workingDirectory = QDir::currentPath().toStdString();
    return paths;
}

SourceFinder::SourceFinder(SourcePaths paths) : m_paths(std::move(paths)) {}

// pprof's trimPath: with no trim prefix given, the part after the base name of a search directory; then the
// prefixes given and /proc/self/cwd/.
static std::string trimmedPath(const std::string &path, const SourcePaths &paths, const std::vector<std::string> &dirs)
{
    if (paths.trimPaths.empty())
        for (const std::string &dir : dirs) {
            const std::string want = "/" + baseName(dir) + "/";
            const size_t found = path.find(want);
            if (found != std::string::npos)
                return path.substr(found + want.size());
        }
    std::vector<std::string> trims = paths.trimPaths;
    trims.push_back("/proc/self/cwd/./");
    trims.push_back("/proc/self/cwd/");
    for (std::string t : trims) {
        if (t.empty() || t.back() != '/')
            t += '/';
        if (path.compare(0, t.size(), t) == 0)
            return path.substr(t.size());
    }
    return path;
}

std::string SourceFinder::displayPath(const std::string &path) const
{
    // As pprof's graph shows it: trimmed by the --source-path given (none: no base-name heuristic).
    return trimmedPath(path, m_paths, m_paths.searchPath);
}

void SourceFinder::learnProfileGoroot(const std::vector<std::string> &profilePaths)
{
    for (const std::string &p : profilePaths) {
        const size_t at = p.find("/src/runtime/");
        if (at != std::string::npos && at > 0 && p[0] == '/') {
            m_profileGoroot = p.substr(0, at);
            return;
        }
    }
}

std::vector<SourceFinder::Candidate> SourceFinder::candidates(const std::string &displayed) const
{
    std::vector<Candidate> out;
    // pprof's search: trimmed again, now with the working directory standing in for an empty --source-path; an
    // absolute path as it is; a relative one under each search directory and each of its parents.
    std::vector<std::string> dirs = m_paths.searchPath;
    if (dirs.empty())
        dirs.push_back(m_paths.workingDirectory);
    const std::string path = trimmedPath(displayed, m_paths, dirs);
    if (!path.empty() && path[0] == '/') {
        out.push_back({path, ""});
    } else {
        for (std::string dir : dirs)
            for (;;) {
                out.push_back({join(dir, path), ""});
                const std::string parent = parentOf(dir);
                if (parent == dir || parent.empty())
                    break;
                dir = parent;
            }
    }
    // Beyond pprof: the profile's GOROOT on this machine, -trimpath's "runtime/proc.go" under GOROOT/src, and the
    // module cache for module@version paths (absolute ones after their ".../pkg/mod/").
    if (!m_paths.goroot.empty()) {
        if (!m_profileGoroot.empty() && path.compare(0, m_profileGoroot.size() + 5, m_profileGoroot + "/src/") == 0)
            out.push_back({m_paths.goroot + path.substr(m_profileGoroot.size()), "GOROOT"});
        if (!path.empty() && path[0] != '/')
            out.push_back({join(m_paths.goroot + "/src", path), "GOROOT"});
    }
    if (!m_paths.moduleCache.empty() && path.find('@') != std::string::npos) {
        const size_t mod = path.find("/pkg/mod/");
        if (mod != std::string::npos)
            out.push_back({join(m_paths.moduleCache, path.substr(mod + 9)), "the module cache"});
        else if (path[0] != '/')
            out.push_back({join(m_paths.moduleCache, path), "the module cache"});
    }
    return out;
}

const SourceFile &SourceFinder::read(const std::string &displayed)
{
    auto cached = m_cache.find(displayed);
    if (cached != m_cache.end())
        return cached->second;
    SourceFile &file = m_cache[displayed];
    std::string found;
    for (const Candidate &c : candidates(displayed))
        if (isFile(c.path)) {
            found = c.path;
            file.foundIn = c.foundIn;
            break;
        }
    if (found.empty()) {
        std::string where;
        for (const std::string &d : m_paths.searchPath.empty() ? std::vector<std::string>{m_paths.workingDirectory}
                                                               : m_paths.searchPath)
            where += (where.empty() ? "" : ":") + d;
        file.error = "could not find " + displayed + " (searched " + where +
                     (m_paths.goroot.empty() ? "" : ", GOROOT " + m_paths.goroot) +
                     (m_paths.moduleCache.empty() ? "" : ", the module cache " + m_paths.moduleCache) +
                     "; --source-path DIR and --trim-path PREFIX say where it is)";
        return file;
    }
    QFile f(QString::fromStdString(found));
    if (!f.open(QIODevice::ReadOnly)) {
        file.error = found + ": cannot read: " + f.errorString().toStdString();
        return file;
    }
    if (uint64_t(f.size()) > kMaxSourceBytes) {
        file.error = found + ": " + std::to_string(f.size()) + " bytes, over the " +
                     std::to_string(kMaxSourceBytes >> 20) + " MiB a source file may have: not read";
        return file;
    }
    const QByteArray bytes = f.readAll();
    if (f.error() != QFileDevice::NoError) {
        file.error = found + ": cannot read: " + f.errorString().toStdString();
        return file;
    }
    if (bytes.contains('\0')) {
        file.error = found + ": binary data (a NUL byte at offset " + std::to_string(bytes.indexOf('\0')) +
                     "), not source text";
        return file;
    }
    file.path = found;
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        qsizetype stop = end;
        if (stop > start && bytes[stop - 1] == '\r')
            --stop;   // as Go's bufio.ScanLines
        file.lines.emplace_back(bytes.constData() + start, size_t(stop - start));
        start = end + 1;
    }
    return file;
}

}   // namespace qflame
