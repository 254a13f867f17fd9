/* switch.h — the simulated platform's reducing switches (NVLink SHARP's NVSwitch, InfiniBand SHARP's leaf
 * and spine), as SimGrid hosts that no rank runs on (harness/sim/platform_xml.c writes them where the
 * platform has nvls_bw / sharp_bw). Under SMPI a rank moves bytes between its GPU's host and a switch's
 * host with SimGrid's host-to-host transfers (no receiving actor: s4u Comm::sendto_async) and runs the
 * switch's reduction on the switch's host (an s4u Exec there): collectives/switch_sim.cpp. Outside the
 * simulation there is no switch (switch_none.c): coll_sw_host answers NULL and the caller keeps its MPI path.
 * Only timing: the bytes are not moved (the simulation's buffers are shared and meaningless, mem_sim.c). */
#ifndef DDL_SWITCH_H
#define DDL_SWITCH_H

/* The host the calling rank's GPU sits on (NULL: not simulated). */
void *coll_sw_self(void);
/* The host named by property `key` of the calling rank's GPU's zone ("nvs": its node's NVSwitch, "sharp":
 * its rail's leaf, "spine": the spine's aggregation), or NULL where there is none. */
void *coll_sw_host(const char *key);
/* Property `key` of the calling rank's GPU's zone as a number, or `dflt` where absent. */
double coll_sw_num(const char *key, double dflt);

#define COLL_SW_MAX 8 /* activities of one round */
typedef struct coll_sw_round {
    void *act[COLL_SW_MAX];
    int n;
} coll_sw_round;

/* Start a transfer of `bytes` from host `from` to host `to`, or (to == NULL) a computation of `bytes` flops
 * on host `from`. 0, or -1 when the round is full. */
int coll_sw_start(coll_sw_round *r, void *from, void *to, double bytes);
/* Wait for every activity of the round and empty it. */
void coll_sw_wait(coll_sw_round *r);

#endif
