#include "model_priv.h"
const char model_inception3_text[] = "conv a in=image out=8 k=3\nfc fc out=10\n";
