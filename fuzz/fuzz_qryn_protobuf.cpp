// libFuzzer target: every querier.v1 answer decoder (QuerierCodec.h). The first byte picks the decoder, the rest
// is the body, so one target (and one CI slot) covers all seven; a SelectMergeStacktraces answer that decodes
// is also turned into a profile, call tree and flat table as the window does.
#include "Exercise.h"
#include "formats/ProfileInput.h"
#include "qryn/QuerierCodec.h"
#include "qryn/StacksToTree.h"

#include <google/protobuf/stubs/logging.h>

using namespace qflame::qryn;

// A string field with invalid UTF-8 makes libprotobuf log an ERROR line (and the decoder refuse the answer): in
// about 2% of executions, which filled the log with hundreds of thousands of lines on a long run. The refusal is
// what is tested; the line is not.
extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    google::protobuf::SetLogHandler(nullptr);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    switch (data[0] % 7) {
    case 0: (void)codec::profileTypesResponse(body); break;
    case 1: (void)codec::labelNamesResponse(body); break;
    case 2: (void)codec::labelValuesResponse(body); break;
    case 3: (void)codec::seriesResponse(body); break;
    case 4: (void)codec::selectSeriesResponse(body); break;
    case 5: (void)codec::profileStatsResponse(body); break;
    case 6: {
        auto graph = codec::selectMergeStacktracesResponse(body);
        if (!graph)
            break;
        ProfileType type;
        ProfileType::parse("process_cpu:cpu:nanoseconds:cpu:nanoseconds", &type);
        MergedFlamegraph merged;
        merged.graph = std::move(*graph);
        QString why;
        try {
            if (buildMergedFlamegraph(&merged, type, 60'000'000'000, "fuzz", &why) && merged.tree && merged.flat)
                qflame::fuzz::checkTree(*merged.tree, *merged.flat);
        } catch (const qflame::ProfileError &) {
        }
        break;
    }
    }
    return 0;
}
