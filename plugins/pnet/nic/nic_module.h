// The nic pnet component: this node's own network devices as one fabric
// plane, read from the node's hwloc topology (PMIx_Load_topology: network
// and OpenFabrics OS devices, their PCI vendor/device ids and names, MAC
// address or node GUID) and, where the kernel says more, from sysfs
// (/sys/class/net/<dev>: mtu, speed, operstate, driver;
// /sys/class/infiniband/<dev>: driver).
//
// Answer (fabric_info): PMIX_FABRIC_VENDOR (the first device's PCI vendor
// name, else "unknown"), PMIX_FABRIC_IDENTIFIER ("nic:<hostname>"),
// PMIX_FABRIC_NUM_DEVICES (size_t), PMIX_FABRIC_DEVICES: one
// PMIX_FABRIC_DEVICE per device with PMIX_FABRIC_DEVICE_INDEX (uint32),
// _NAME, _TYPE ("network" / "openfabrics"), _BUS_TYPE ("pci" when on a PCI
// bus), _VENDORID / _PCI_DEVID ("0x8086" / "0x1572"), _VENDOR, _ADDRESS,
// and when sysfs knows: _DRIVER, _MTU, _SPEED (Mb/s) (size_t), _STATE.
// Coordinates are not known to a node and are not given. A node without
// network devices is a plane with 0 devices. No job hooks.
#ifndef PMIXX_PLUGINS_PNET_NIC_NIC_MODULE_H
#define PMIXX_PLUGINS_PNET_NIC_NIC_MODULE_H

#include "pmix/mca/pnet.h"

namespace pmix::pnet::nic {

extern const pmix_pnet_module_t kModule;

}  // namespace pmix::pnet::nic

#endif  // PMIXX_PLUGINS_PNET_NIC_NIC_MODULE_H
