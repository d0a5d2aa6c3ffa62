{
  "variables": {
    "mia_onednn_prefix%": ""
  },
  "targets": [
    {
      "target_name": "mia_native",
      "sources": [
        "native/addon.cc",
        "native/batch_norm.cc",
        "native/batch_norm_loops.cc",
        "native/common.cc",
        "native/conv.cc",
        "native/dense.cc",
        "native/elementwise.cc",
        "native/gather.cc",
        "native/gemm.cc",
        "native/matmul_primitive.cc",
        "native/onednn.cc",
        "native/optimizer.cc",
        "native/pool.cc",
        "native/precision.cc",
        "native/reduce.cc",
        "native/scratch.cc",
        "native/softmax_cross_entropy.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O3", "-ffp-contract=off", "-fno-trapping-math", "-fexceptions", "-frtti", "-fopenmp", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "libraries": ["-ldnnl", "-fopenmp"],
      "conditions": [
        ["mia_onednn_prefix!=''", {
          "include_dirs": ["<(mia_onednn_prefix)/include"],
          "ldflags": ["-L<(mia_onednn_prefix)/lib", "-Wl,-rpath,<(mia_onednn_prefix)/lib"]
        }]
      ]
    }
  ]
}
