/* device_pick.c — see device_pick.h. */
#include "device_pick.h"

#include "devmem.h"

#include <mpi.h>

int device_pick_local(void)
{
    MPI_Comm node;
    int local = 0, n = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
    }
    return kern_dev_count(&n) || n == 0 || kern_dev_select(local % n);
}
