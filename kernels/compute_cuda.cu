/* compute_cuda.cu — the CUDA build's backend of compute.h. GEMMs are queued on the compute stream
 * (gemm_cublas.cu); kern_compute_mark waits for that stream to drain and returns -1 ("complete now"),
 * so the step measures GPU time exactly as on the CPU (stream_time() is then MPI_Wtime), and a bucket
 * the step posts after a mark holds finished gradients: the communication thread may move it at
 * once, while later GEMMs run on the compute stream and the copies on the engine's own stream. */
#include "devmem_cuda.h"

extern "C" {
#include "compute.h"
}


extern "C" void kern_compute_begin(void) {}
extern "C" void kern_compute_issue(double seconds) { (void)seconds; }

extern "C" double kern_compute_mark(void)
{
    kern_stream *s = kern_dev_compute_stream();
    /* a failed kernel is recorded (kern_dev_last_error); the next GEMM call fails and its caller says so */
    if (s) (void)kern_stream_sync(s);
    return -1.0;
}

extern "C" void kern_compute_wait_until(double t) { (void)t; }

extern "C" int kern_simulated(void) { return 0; }
