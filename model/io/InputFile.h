// The bytes of a file or of standard input, read under the size cap before any reader sees them.
#pragma once

#include "io/ReadOptions.h"

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace qflame {

class InputArrival;

// Bytes read for a reader: a block of a file's size (read straight into it, on huge pages when large), or a
// string (standard input, a URL's body).
class InputBytes {
public:
    InputBytes();
    explicit InputBytes(std::string text);
    InputBytes(InputBytes &&) noexcept;
    InputBytes &operator=(InputBytes &&) noexcept;
    ~InputBytes();
    // `size` bytes, not yet written (malloc; throws std::bad_alloc).
    static InputBytes uninitialized(size_t size);

    char *data() { return m_block ? m_block.get() : m_text.data(); }
    size_t size() const { return m_block ? m_blockSize : m_text.size(); }
    std::string_view view() const { return m_block ? std::string_view(m_block.get(), m_blockSize) : m_text; }
    void shrink(size_t size);   // to at most `size` bytes

    // A compressed file of some size is read in two steps: its beginning by readInputBytes, so that inflating can
    // start, and the rest by readRest(), on the caller's thread, while the beginning inflates (io/InputArrival.h).
    // Until then view() holds the file's size, of which arrival() tells what has been read; null for bytes read
    // at once.
    const InputArrival *arrival() const;
    // Reads what is left of the file (ProfileError when it cannot); then view() is all of it. Every thread waiting
    // on arrival() is let go, whatever happens.
    void readRest();

private:
    friend InputBytes readInputBytes(const std::string &path, const ReadOptions &options, std::string *sourceName);
    struct Rest;
    std::unique_ptr<Rest> m_rest;   // with the file still open
    struct Free {
        void operator()(char *p) const { std::free(p); }
    };
    std::string m_text;
    std::unique_ptr<char, Free> m_block;
    size_t m_blockSize = 0;
};

// The bytes of an http(s) URL given where a FILE is expected (fetch/ProfileFetch.h installs it, with QtNetwork,
// which this layer does not link). Sets *sourceName like readInputBytes; throws ProfileError.
using UrlReader =
    std::function<std::string(const std::string &url, const ReadOptions &options, std::string *sourceName)>;
void setUrlReader(UrlReader reader);

// The raw bytes of a file ("-": standard input; an http:// or https:// URL through the UrlReader), refusing more
// than options.maxDecompressedBytes; sets *sourceName to the name for messages. Throws ProfileError.
InputBytes readInputBytes(const std::string &path, const ReadOptions &options, std::string *sourceName);

}   // namespace qflame
