// The fields of a Profile message that the decoder does not stream (sample types, period type, comments, the
// header's scalars, unknown fields), collected in wire format and parsed by libprotobuf a chunk at a time; and the
// wire-level reading both judge alike (tags and lengths held to libprotobuf's message parser's rules).
#pragma once

#include "io/ReadOptions.h"
#include "profile.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>

namespace qflame {

namespace wire {

// CodedInputStream reads tags and lengths of up to 10 bytes; libprotobuf's message parser, which judges the
// samples and the collected fields, allows tags of at most 5 bytes and lengths below 2 GiB in at most 5. The
// decoder holds the stream to the parser's rules so that both judge every input alike (fuzz_pprof checks it).
// Inline: they run once per field of the profile.
inline bool readTag(google::protobuf::io::CodedInputStream &in, uint32_t *tag)
{
    const int before = in.CurrentPosition();
    *tag = in.ReadTag();
    return in.CurrentPosition() - before <= 5;
}

constexpr int kSlopBytes = 16;   // the parser refuses lengths this close to INT_MAX

inline bool readSize(google::protobuf::io::CodedInputStream &in, uint32_t *size)
{
    const int before = in.CurrentPosition();
    uint64_t value;
    if (!in.ReadVarint64(&value) || in.CurrentPosition() - before > 5 || value > uint64_t(INT_MAX - kSlopBytes))
        return false;
    *size = uint32_t(value);
    return true;
}

}   // namespace wire

class RestFields {
public:
    explicit RestFields(const ReadOptions &limits) : m_limits(limits) {}

    // Copies one top-level field whose tag has been read; false when its bytes are not valid wire format or a
    // full chunk does not parse. Throws ProfileError for a field over the size limit, and (through flush) for
    // more sample types or comments than the limits allow.
    bool copy(google::protobuf::io::CodedInputStream &in, uint32_t tag, std::string &scratch);

    // Parses what is collected and adds it to parsed(); false when it does not parse.
    bool flush();

    // The chunks parsed so far (all of them after flush()).
    const perftools::profiles::Profile &parsed() const { return m_parsed; }

private:
    const ReadOptions &m_limits;
    std::string m_bytes;                       // the fields, in wire format, a chunk at a time
    std::optional<google::protobuf::io::StringOutputStream> m_stream;
    std::optional<google::protobuf::io::CodedOutputStream> m_out;
    uint32_t m_chunkScalars = 0;               // top-level scalar fields in this chunk, by field number
    perftools::profiles::Profile m_parsed;     // the chunks parsed so far
};

}   // namespace qflame
