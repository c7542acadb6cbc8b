#include "io/InputFile.h"

#include "io/Compression.h"
#include "io/InputArrival.h"
#include "io/Prefault.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace qflame {

namespace {

constexpr uint64_t kHugeFrom = uint64_t(4) << 20;
constexpr uint64_t kPopulateFrom = uint64_t(256) << 10;
// A compressed file from this size on is read in two steps (InputBytes::readRest): its first part, then the rest
// in pieces, each of which the inflating thread may take on as soon as it is in. The inflater takes longer over
// a piece than the read did (ISA-L: about 1 ms a compressed megabyte here, read(): 0.3-0.4 ms), so it rarely
// waits.
constexpr size_t kInTwoStepsFrom = size_t(512) << 10;
constexpr size_t kFirstPart = size_t(256) << 10;
constexpr size_t kRestPiece = size_t(512) << 10;

UrlReader &urlReader()
{
    static UrlReader reader;
    return reader;
}

bool startsWithNoCase(const std::string &s, const char *prefix)
{
    return strncasecmp(s.c_str(), prefix, std::strlen(prefix)) == 0;
}

// Closes the descriptor it holds (not standard input's).
struct Descriptor {
    int fd = -1;
    ~Descriptor()
    {
        if (fd > 0)
            ::close(fd);
    }
};

// read() until `size` bytes or the end; -1 on an error (errno says which).
ssize_t readFully(int fd, char *into, size_t size)
{
    size_t got = 0;
    while (got < size) {
        const ssize_t n = ::read(fd, into + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += size_t(n);
    }
    return ssize_t(got);
}

std::string cannot(const std::string &name, const char *what)
{
    return name + ": cannot " + what + ": " + std::strerror(errno);
}

}   // namespace

struct InputBytes::Rest {
    Descriptor file;
    std::string name;
    size_t read = 0;   // bytes of the file read so far
    InputArrival arrival{0};
    bool ended = false;
};

InputBytes::InputBytes() = default;
InputBytes::InputBytes(std::string text) : m_text(std::move(text)) {}
InputBytes::InputBytes(InputBytes &&) noexcept = default;
InputBytes &InputBytes::operator=(InputBytes &&) noexcept = default;

InputBytes::~InputBytes()
{
    // Unread only where the door stopped before readRest (an error): its inflater is gone by now, but nothing
    // is left waiting on an input that will not come.
    if (m_rest && !m_rest->ended)
        m_rest->arrival.end(m_rest->read);
}

const InputArrival *InputBytes::arrival() const
{
    return m_rest ? &m_rest->arrival : nullptr;
}

void InputBytes::readRest()
{
    if (!m_rest || m_rest->ended)
        return;
    Rest &r = *m_rest;
    auto end = [&] {
        r.ended = true;
        shrink(r.read);
        r.arrival.end(r.read);
        ::close(r.file.fd);
        r.file.fd = -1;
    };
    while (r.read < m_blockSize) {
        const size_t piece = std::min(kRestPiece, m_blockSize - r.read);
        populateForWrite(m_block.get() + r.read, piece);
        const ssize_t n = readFully(r.file.fd, m_block.get() + r.read, piece);
        if (n < 0) {
            const std::string message = cannot(r.name, "read");
            end();
            throw ProfileError(message);
        }
        r.read += size_t(n);
        if (size_t(n) < piece)
            break;   // the file got shorter since it was opened: what there is, as a one-step read would have
        r.arrival.arrived(r.read);
    }
    end();
}

InputBytes InputBytes::uninitialized(size_t size)
{
    InputBytes b;
    b.m_block.reset(static_cast<char *>(std::malloc(size ? size : 1)));
    if (!b.m_block)
        throw std::bad_alloc();
    b.m_blockSize = size;
    return b;
}

void InputBytes::shrink(size_t size)
{
    if (m_block)
        m_blockSize = std::min(m_blockSize, size);
    else if (size < m_text.size())
        m_text.resize(size);
}

void setUrlReader(UrlReader reader)
{
    urlReader() = std::move(reader);
}

InputBytes readInputBytes(const std::string &path, const ReadOptions &options, std::string *sourceName)
{
    // A URL is never a file name here: "http:" would be a folder of the working directory, which nobody has.
    if (startsWithNoCase(path, "http://") || startsWithNoCase(path, "https://")) {
        *sourceName = path;
        if (!urlReader())
            throw ProfileError(*sourceName + ": this program cannot fetch URLs (qflame-gui can)");
        return InputBytes(urlReader()(path, options, sourceName));
    }
    const bool standardInput = path == "-";
    const std::string name = standardInput ? "<stdin>" : path;
    *sourceName = name;
    Descriptor file;
    file.fd = standardInput ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st = {};
    if (file.fd < 0 || ::fstat(file.fd, &st) != 0)
        throw ProfileError(cannot(name, "open"));
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        throw ProfileError(cannot(name, "open"));
    }
    // Compressed input is at most ~1/1000 of its inflated size for real data; refusing files far over the cap
    // before reading them keeps a huge wrong file from being slurped into memory.
    const bool regular = S_ISREG(st.st_mode);
    if (regular && st.st_size > 0 && uint64_t(st.st_size) > options.maxDecompressedBytes)
        throw ProfileError(name + ": the file is larger than the size limit of " +
                           std::to_string(options.maxDecompressedBytes) + " bytes");
    if (!regular) {   // a pipe, a terminal, a device: read in steps, up to the cap
        std::string text;
        for (;;) {
            const size_t at = text.size();
            text.resize(at + (size_t(1) << 20));
            const ssize_t n = readFully(file.fd, text.data() + at, size_t(1) << 20);
            if (n < 0)
                throw ProfileError(cannot(name, "read"));
            text.resize(at + size_t(n));
            if (uint64_t(text.size()) > options.maxDecompressedBytes)
                throw ProfileError(name + ": the input is larger than the size limit of " +
                                   std::to_string(options.maxDecompressedBytes) + " bytes");
            if (n == 0)
                return InputBytes(std::move(text));
        }
    }
    // Read straight into memory on huge pages (Prefault.h): 10 MB of fresh 4 KiB pages filled by read() cost
    // 10-20 ms of page faults on this project's VM, a fifth of what `qflame top` spends beside the work. Smaller
    // files get no huge page (they would not fill one), but their pages are faulted in with one call before the
    // read: read() into fresh memory took 138 of the 660 page faults of `qflame top pprof__large.cpu` (1.2 MB).
    const size_t size = size_t(st.st_size);
    InputBytes bytes = InputBytes::uninitialized(size);
    if (size >= kHugeFrom)
        adviseHugePages(bytes.data(), size);
    const size_t first = size >= kInTwoStepsFrom ? kFirstPart : size;
    if (first >= kPopulateFrom)
        populateForWrite(bytes.data(), first);
    const ssize_t n = readFully(file.fd, bytes.data(), first);
    if (n < 0)
        throw ProfileError(cannot(name, "read"));
    if (size_t(n) < first || first == size) {   // all of it, or all there is (the file got shorter)
        bytes.shrink(size_t(n));
        return bytes;
    }
    bytes.m_rest = std::make_unique<InputBytes::Rest>();
    bytes.m_rest->file.fd = std::exchange(file.fd, -1);
    bytes.m_rest->name = name;
    bytes.m_rest->read = size_t(n);
    bytes.m_rest->arrival.arrived(size_t(n));
    if (sniffCompression(std::string_view(bytes.data(), size_t(n))) == Compression::None) {
        bytes.readRest();   // nothing inflates it: the rest at once, and the bytes are read at once to the reader
        bytes.m_rest.reset();
    }
    return bytes;
}

}   // namespace qflame
