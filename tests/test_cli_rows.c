/* test_cli_rows.c — the shared option rows (harness/cli/cli_rows.c): the machine rows fill a
 * platform_opts (--platform and its old spelling --preset, --nodes, --gpus-per-node, the custom
 * links with units), the workload rows keep one limit each, algorithm lists check the registry. */
#include "cli_rows.h"
#include "test.h"

typedef struct w {
    long batch, image, bucket[CLI_LIST_MAX];
    int nbucket, nalgos, full;
    const char *algos[CLI_LIST_MAX];
    char buf[256];
} w;

static const opt_row rows[] = { CLI_ROW_BUCKET_MB(w, bucket, nbucket), CLI_ROW_ALGOS(w, algos, nalgos, buf) };

static platform_opts po;
static w o;
static char err[300];

static int run(int argc, char **argv)
{
    const opts_set sets[] = { { platform_rows, PLATFORM_ROWS, &po }, OPTS_ONE(&cli_row_batch, &o.batch),
                              OPTS_ONE(&cli_row_image, &o.image), OPTS_SET(rows, &o),
                              OPTS_ONE(&cli_row_compute, &o.full) };
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    po = (platform_opts)PLATFORM_OPTS_INIT;
    memset(&o, 0, sizeof o);
    err[0] = '\0';
    return opts_parse(&p, argc, argv, err, sizeof err);
}

#define ARGS(...) (int)(sizeof (char *[]){ "x", __VA_ARGS__ } / sizeof(char *)), (char *[]){ "x", __VA_ARGS__ }

int main(void)
{
    platform pf;
    CHECK(run(ARGS("--platform", "minsky", "--nodes=4", "--gpus-per-node", "2")) == 0, "%s", err);
    CHECK(!strcmp(po.preset, "minsky") && po.nodes == 4 && po.gpus_per_node == 2, "machine rows");
    CHECK(platform_from_opts(&po, &pf, err, sizeof err) == 2 && strstr(err, "--gpus-per-node 2: platform minsky has 4"),
          "a GPU count the platform does not have: %s", err);
    CHECK(run(ARGS("--platform", "minsky", "--nodes=4", "--gpus-per-node", "2", "--override-platform")) == 0 &&
          platform_from_opts(&po, &pf, err, sizeof err) == 0 && platform_ranks(&pf) == 8, "overridden: %s", err);
    CHECK(run(ARGS("--platform", "minsky", "--nodes=4", "--gpus-per-node", "4")) == 0 &&
              platform_from_opts(&po, &pf, err, sizeof err) == 0 && platform_ranks(&pf) == 16,
          "the platform's own: %s", err);
    CHECK(run(ARGS("--preset", "h200", "--nodes", "1")) == 0 && !strcmp(po.preset, "h200"), "old spelling");
    CHECK(run(ARGS("--preset", "")) == 2 && strstr(err, "--preset: expected"), "empty: %s", err);
    CHECK(run(ARGS("--nodes", "16385")) == 2 && strstr(err, "--nodes: expected an integer in 1..16384"), "%s", err);
    CHECK(run(ARGS("--gpus-per-node", "65")) == 2 && strstr(err, "1..64"), "%s", err);
    CHECK(run(ARGS("--platform", "custom", "--nodes", "2", "--intra-bw", "100Gbit", "--intra-lat", "5us",
                   "--inter-bw=12.5G", "--inter-lat", "7us")) == 0, "%s", err);
    CHECK(po.intra_bw == 12.5e9 && po.inter_bw == 12.5e9 && po.intra_lat > 4.9e-6 && po.inter_lat < 7.1e-6, "links");
    CHECK(platform_from_opts(&po, &pf, err, sizeof err) == 0, "custom: %s", err);
    CHECK(run(ARGS("--intra-bw", "10Q")) == 2 && strstr(err, "--intra-bw: expected a bandwidth"), "%s", err);
    CHECK(run(ARGS("--inter-lat", "-5us")) == 2 && strstr(err, "--inter-lat: expected a latency"), "%s", err);
    CHECK(run(ARGS("--batch", "65536", "--image-size", "4096")) == 0 && o.batch == 65536, "%s", err);
    CHECK(run(ARGS("--batch", "65537")) == 2 && strstr(err, "--batch: expected an integer in 1..65536"), "%s", err);
    CHECK(run(ARGS("--bucket-mb", "0,25,65536")) == 0 && o.nbucket == 3 && o.bucket[2] == 65536, "%s", err);
    CHECK(run(ARGS("--bucket-mb", "-1")) == 2, "negative bucket");
    CHECK(run(ARGS("-a", "ring,ddl")) == 0 && o.nalgos == 2 && !strcmp(o.algos[1], "ddl"), "%s", err);
    CHECK(run(ARGS("--algo=ring,nosuch")) == 2 && strstr(err, "got \"nosuch\""), "%s", err);
    CHECK(run(ARGS("--compute", "gemm")) == 0 && o.full == 0, "compute gemm");
    CHECK(run(ARGS("--compute", "full")) == 0 && o.full == 1, "compute full");
    char want[200];
    CHECK(cli_algo_check("ring", want, sizeof want) == 0, "ring is registered");
    CHECK(cli_algo_check("rign", want, sizeof want) == 1 && strstr(want, "did you mean ring?"), "rign: %s", want);
    CHECK(cli_algo_check("zzzzzz", want, sizeof want) == 1 && !strstr(want, "did you mean"), "no near name: %s", want);
    return TEST_REPORT();
}
