// Protobuf wire format written by hand, for messages the generated classes cannot make: fields in any order or
// encoding, unknown fields, groups, cut or overlong varints (the hand-written decoders' tests).
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdint>
#include <string>

namespace qflame::test {

struct Wire {
    std::string bytes;
    void varint(uint64_t v)
    {
        google::protobuf::io::StringOutputStream stream(&bytes);
        google::protobuf::io::CodedOutputStream(&stream).WriteVarint64(v);
    }
    void tag(int field, int wireType) { varint(uint64_t(field) << 3 | uint64_t(wireType)); }
    void varintField(int field, uint64_t v) { tag(field, 0), varint(v); }
    void bytesField(int field, const std::string &b) { tag(field, 2), varint(b.size()), bytes += b; }
};

}   // namespace qflame::test
