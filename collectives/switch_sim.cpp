/* switch_sim.cpp — switch.h under SMPI (SimGrid 3.32's s4u; compiled into the simulation build only). An SMPI
 * rank is an s4u actor: it may start host-to-host transfers (Comm::sendto_async: no actor receives them)
 * and computations on another host (exec_init + set_host), and wait for them. No actor is created (one
 * created from inside an SMPI rank crashed SimGrid 3.32). The properties are the GPU's cluster's <prop>s,
 * which SimGrid gives its zone. */
extern "C" {
#include "switch.h"
}

#include <simgrid/s4u.hpp>

#include <cstdlib>

namespace sg4 = simgrid::s4u;

extern "C" void *coll_sw_self(void) { return sg4::Host::current(); }

extern "C" void *coll_sw_host(const char *key)
{
    const char *name = sg4::Host::current()->get_englobing_zone()->get_property(key);
    return name ? sg4::Host::by_name_or_null(name) : nullptr;
}

extern "C" double coll_sw_num(const char *key, double dflt)
{
    const char *v = sg4::Host::current()->get_englobing_zone()->get_property(key);
    return v ? std::strtod(v, nullptr) : dflt;
}

extern "C" int coll_sw_start(coll_sw_round *r, void *from, void *to, double bytes)
{
    sg4::ActivityPtr a;
    if (r->n >= COLL_SW_MAX) return -1;
    if (bytes <= 0) return 0;
    if (to)
        a = sg4::Comm::sendto_async(static_cast<sg4::Host *>(from), static_cast<sg4::Host *>(to),
                                    static_cast<uint64_t>(bytes + 0.5));
    else {
        sg4::ExecPtr e = sg4::this_actor::exec_init(bytes);
        e->set_host(static_cast<sg4::Host *>(from));
        e->start();
        a = e;
    }
    r->act[r->n++] = new sg4::ActivityPtr(a);
    return 0;
}

extern "C" void coll_sw_wait(coll_sw_round *r)
{
    for (int i = 0; i < r->n; i++) {
        auto *a = static_cast<sg4::ActivityPtr *>(r->act[i]);
        (*a)->wait();
        delete a;
    }
    r->n = 0;
}
