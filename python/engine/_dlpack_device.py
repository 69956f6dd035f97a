"""``DLDeviceType``: device types as the DLPack specification numbers them, apart from
engine/_dlpack.py because an ``enum.IntEnum`` costs ``import engine`` the import of enum; it loads
with the first DLPack exchange."""

import enum


class DLDeviceType(enum.IntEnum):
    """Device types as the DLPack specification numbers them."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
