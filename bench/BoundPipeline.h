// A prototype of the `qflame top` that never keeps the samples (qflame-bench-bound's last part), in three stages
// on their own threads: inflating (InflatingStream's thread), decoding the samples' ids and values into batches
// (the caller's thread), and adding each batch's sums and marks (a third thread). It does what the bound's
// passes do, with the real stream in between; the bound assumes the parts share the two cores perfectly, this
// measures how they do.
#pragma once

#include "BoundPass.h"

#include "io/InflatingStream.h"

#include <google/protobuf/io/coded_stream.h>

#include <climits>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bound {

constexpr size_t kBatchSamples = 4096;

// Samples as the decoding stage hands them on: their ids one after the other, where each one's end, its value
// and how many locations the file had given by then; and the locations new in the batch.
struct Batch {
    std::vector<uint16_t> ids;
    std::vector<uint32_t> ends, known;
    std::vector<int64_t> values;
    Locations locations;
};

// From the decoding thread to the summing one, at most eight batches ahead; used batches come back for reuse
// (fresh ones each time were a page fault every 4 KiB).
class Handoff {
public:
    void put(std::unique_ptr<Batch> b)   // null: no more
    {
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_ready.size() < 8; });
            m_ready.push_back(std::move(b));
        }
        m_changed.notify_all();
    }
    std::unique_ptr<Batch> get()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_ready.empty(); });
        auto b = std::move(m_ready.front());
        m_ready.pop_front();
        lock.unlock();
        m_changed.notify_all();
        return b;
    }
    void giveBack(std::unique_ptr<Batch> b)
    {
        b->ids.clear(), b->ends.clear(), b->known.clear(), b->values.clear(), b->locations.clear();
        std::lock_guard lock(m_mutex);
        m_free.push_back(std::move(b));
    }
    std::unique_ptr<Batch> take()
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_free.empty()) {
                auto b = std::move(m_free.back());
                m_free.pop_back();
                return b;
            }
        }
        auto b = std::make_unique<Batch>();
        b->ids.reserve(kBatchSamples * 64);
        b->ends.reserve(kBatchSamples);
        b->known.reserve(kBatchSamples);
        b->values.reserve(kBatchSamples);
        return b;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::unique_ptr<Batch>> m_ready;
    std::vector<std::unique_ptr<Batch>> m_free;
};

// The decoding stage: the stream's top-level fields read as the program's decoder reads them (CodedInputStream
// over the inflating stream, a field's bytes in place when its block holds them); samples and locations into
// batches, the rest skipped. False when a field is not of the shapes taken here.
inline bool decodeStage(InflatingStream &stream, size_t type, Handoff &out)
{
    using google::protobuf::io::CodedInputStream;
    CodedInputStream in(&stream);
    in.SetTotalBytesLimit(INT_MAX);
    std::string scratch;
    DecodedSample sample;
    auto batch = out.take();
    uint32_t known = 0;   // locations read so far
    batch->locations.nextId = 1;
    bool ok = true;
    for (uint32_t tag; ok && (tag = in.ReadTag()) != 0;) {
        uint32_t size;
        if ((tag & 7) == 0) {
            uint64_t v;
            ok = in.ReadVarint64(&v);
            continue;
        }
        if ((tag & 7) != 2 || !in.ReadVarint32(&size)) {
            ok = false;
            break;
        }
        const uint32_t field = tag >> 3;
        if (field != 2 && field != 4) {
            ok = in.Skip(int(size));
            continue;
        }
        const void *direct;
        int readable;
        const uint8_t *p, *room;
        uint32_t skip = size;
        if (in.GetDirectBufferPointer(&direct, &readable) && uint32_t(readable) >= size) {
            p = static_cast<const uint8_t *>(direct);
            room = p + readable;
        } else {
            if (!in.ReadString(&scratch, int(size))) {
                ok = false;
                break;
            }
            p = reinterpret_cast<const uint8_t *>(scratch.data());
            room = p + size;
            skip = 0;
        }
        if (field == 2) {
            if (!(ok = decodeSample(p, p + size, room, sample) && type < sample.valueCount))
                break;
            batch->ids.insert(batch->ids.end(), sample.ids, sample.ids + sample.n);
            batch->ends.push_back(uint32_t(batch->ids.size()));
            batch->known.push_back(known);
            batch->values.push_back(sample.values[type]);
        } else {
            ok = batch->locations.add(p, p + size);
            ++known;
        }
        ok = ok && (skip == 0 || in.Skip(int(skip)));
        if (batch->ends.size() == kBatchSamples) {
            out.put(std::move(batch));
            batch = out.take();
            batch->locations.nextId = known + 1;
        }
    }
    out.put(std::move(batch));
    out.put(nullptr);
    return ok;
}

// The three stages over `input` (compressed as `c`) into `sums` (sized and marked beforehand); false when the
// profile is not of the shapes taken here.
inline bool runPipeline(const std::string &input, Compression c, size_t type, Sums &sums, Locations &locations)
{
    Handoff handoff;
    std::thread summing([&] {
        while (auto b = handoff.get()) {
            // The batch's new locations first: each sample knows how many it may use.
            const Locations &added = b->locations;
            if (!added.locs.empty()) {
                locations.append(added);
                sums.grow(locations.largestFunction);
            }
            uint32_t begin = 0;
            for (size_t s = 0; s < b->ends.size(); ++s) {
                sums.add(b->ids.data() + begin, b->ends[s] - begin, b->values[s], locations, b->known[s]);
                begin = b->ends[s];
            }
            handoff.giveBack(std::move(b));
        }
    });
    InflatingStream stream(input, c, uint64_t(1) << 34, InflatingStream::kDefaultBlockSize,
                           InflatingStream::Threading::Background);
    const bool ok = decodeStage(stream, type, handoff);
    summing.join();
    return ok && sums.inOrder;
}

}   // namespace bound
