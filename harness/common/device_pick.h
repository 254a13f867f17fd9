/* device_pick.h — GPU runs: which CUDA device a rank uses. */
#ifndef HARN_DEVICE_PICK_H
#define HARN_DEVICE_PICK_H

/* Rank r of a node (MPI_COMM_TYPE_SHARED) takes device r % count, so a node's ranks share its GPUs
 * round-robin. 0, or non-zero when no device can be selected (kern_dev_last_error() says why). */
int device_pick_local(void);

#endif
