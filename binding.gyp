{
  "targets": [
    {
      "target_name": "cuda_driver",
      "sources": ["<!@(node scripts/native-sources.js)"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<!(node scripts/cuda-include.js)",
        "native"
      ],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_CPP_EXCEPTIONS", "NODE_ADDON_API_CPP_EXCEPTIONS_ALL", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-fvisibility=hidden"],
      "libraries": ["-ldl", "-lpthread"],
      "ldflags": ["-Wl,-z,nodelete"]
    }
  ]
}
