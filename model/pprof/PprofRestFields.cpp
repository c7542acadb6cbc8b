#include "pprof/PprofRestFields.h"

#include <google/protobuf/wire_format_lite.h>

#include <climits>

namespace qflame {

namespace pb = perftools::profiles;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

namespace wire {

// Copies one field whose tag has been read to `out`, re-encoded. Groups nest; the parser of the collected
// fields applies its own depth limit to them, the same as in the whole message.
static bool copyField(CodedInputStream &in, uint32_t tag, CodedOutputStream &out, std::string &buffer,
                      int depth = 0)
{
    switch (WireFormatLite::GetTagWireType(tag)) {
    case WireFormatLite::WIRETYPE_VARINT: {
        uint64_t v;
        if (!in.ReadVarint64(&v))
            return false;
        out.WriteTag(tag), out.WriteVarint64(v);
        return true;
    }
    case WireFormatLite::WIRETYPE_FIXED64: {
        uint64_t v;
        if (!in.ReadLittleEndian64(&v))
            return false;
        out.WriteTag(tag), out.WriteLittleEndian64(v);
        return true;
    }
    case WireFormatLite::WIRETYPE_FIXED32: {
        uint32_t v;
        if (!in.ReadLittleEndian32(&v))
            return false;
        out.WriteTag(tag), out.WriteLittleEndian32(v);
        return true;
    }
    case WireFormatLite::WIRETYPE_LENGTH_DELIMITED: {
        uint32_t size;
        if (!readSize(in, &size) || !in.ReadString(&buffer, int(size)))
            return false;
        out.WriteTag(tag), out.WriteVarint32(size), out.WriteString(buffer);
        return true;
    }
    case WireFormatLite::WIRETYPE_START_GROUP: {
        if (depth > 200)   // deeper than the parser allows anyway; bounds this recursion
            return false;
        out.WriteTag(tag);
        for (;;) {
            uint32_t inner;
            if (!readTag(in, &inner) || inner == 0)
                return false;
            if (WireFormatLite::GetTagWireType(inner) == WireFormatLite::WIRETYPE_END_GROUP) {
                if (WireFormatLite::GetTagFieldNumber(inner) != WireFormatLite::GetTagFieldNumber(tag))
                    return false;
                out.WriteTag(inner);
                return true;
            }
            if (!copyField(in, inner, out, buffer, depth + 1))
                return false;
        }
    }
    default:   // an end of group without its start, or no wire type at all
        return false;
    }
}

}   // namespace wire

namespace {

// The fields not streamed go to m_bytes and are parsed a chunk at a time, each chunk's unknown fields
// dropped: parsed whole, 1 GiB of 2-byte fields (empty sample types, unknown varints) became 500 million
// message objects (14-21 GB). Parsing the concatenation of chunks is parsing the whole, field by field.
constexpr size_t kRestChunk = 1u << 20;
// One such field is a sample type, a period type, a packed list of comments or an unknown group: a few bytes
// in any real profile. A larger one would be parsed alone into as many message objects.
constexpr int kMaxRestField = 1 << 20;

}   // namespace

bool RestFields::copy(CodedInputStream &in, uint32_t tag, std::string &scratch)
{
    if (!m_out) {
        m_stream.emplace(&m_bytes);
        m_out.emplace(&*m_stream);
    }
    const int before = m_out->ByteCount();
    if (!wire::copyField(in, tag, *m_out, scratch))
        return false;
    const int after = m_out->ByteCount();
    if (after - before > kMaxRestField)
        throw ProfileError("malformed profile: a field " + std::to_string(tag >> 3) + " of " +
                           std::to_string(after - before) + " bytes, more than the limit of " +
                           std::to_string(kMaxRestField) + " for a sample type, period type or header field");
    // Top-level scalars set in this chunk, so that a later chunk's explicit 0 still wins, as the last value
    // of a field does in one parse (proto3's merge skips zeros).
    if ((tag & 7) == 0 && tag >> 3 < 32)
        m_chunkScalars |= 1u << (tag >> 3);
    return after < int(kRestChunk) || flush();
}

bool RestFields::flush()
{
    if (!m_out)
        return true;
    m_out.reset();   // trims m_bytes to what was written
    m_stream.reset();
    pb::Profile chunk;
    if (!chunk.ParseFromString(m_bytes))
        return false;
    m_bytes.clear();
    if (uint64_t(m_parsed.sample_type_size()) + uint64_t(chunk.sample_type_size()) > m_limits.maxSampleTypes)
        throw ProfileError("malformed profile: more than " + std::to_string(m_limits.maxSampleTypes) +
                           " sample types");
    if (uint64_t(m_parsed.comment_size()) + uint64_t(chunk.comment_size()) > m_limits.maxComments)
        throw ProfileError("malformed profile: more than " + std::to_string(m_limits.maxComments) + " comments");
    // What MergeFrom would do, but without the unknown fields, which are not kept (the lite runtime has no
    // DiscardUnknownFields): repeated fields appended, the period type's non-zero fields merged, and the
    // scalars set in this chunk below.
    for (const pb::ValueType &vt : chunk.sample_type()) {
        pb::ValueType *kept = m_parsed.add_sample_type();
        kept->set_type(vt.type());
        kept->set_unit(vt.unit());
    }
    if (chunk.has_period_type()) {
        pb::ValueType *kept = m_parsed.mutable_period_type();
        if (chunk.period_type().type() != 0)
            kept->set_type(chunk.period_type().type());
        if (chunk.period_type().unit() != 0)
            kept->set_unit(chunk.period_type().unit());
    }
    m_parsed.mutable_comment()->Add(chunk.comment().begin(), chunk.comment().end());
    const auto set = [this](int field) { return (m_chunkScalars >> field & 1) != 0; };
    if (set(pb::Profile::kDropFramesFieldNumber))
        m_parsed.set_drop_frames(chunk.drop_frames());
    if (set(pb::Profile::kKeepFramesFieldNumber))
        m_parsed.set_keep_frames(chunk.keep_frames());
    if (set(pb::Profile::kTimeNanosFieldNumber))
        m_parsed.set_time_nanos(chunk.time_nanos());
    if (set(pb::Profile::kDurationNanosFieldNumber))
        m_parsed.set_duration_nanos(chunk.duration_nanos());
    if (set(pb::Profile::kPeriodFieldNumber))
        m_parsed.set_period(chunk.period());
    if (set(pb::Profile::kDefaultSampleTypeFieldNumber))
        m_parsed.set_default_sample_type(chunk.default_sample_type());
    m_chunkScalars = 0;
    return true;
}

}   // namespace qflame
