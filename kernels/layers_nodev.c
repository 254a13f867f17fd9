/* layers_nodev.c — layers.h's device table in builds without CUDA (the CPU build, the simulation):
 * there is none. The trainer asks for it only with --device gpu, which such a build refuses first. */
#include "layers.h"

#include <stddef.h>

const kern_layer_ops *kern_layers_device(void) { return NULL; }
const kern_layer_ops *kern_layers_device_as(int storage) { (void)storage; return NULL; }
