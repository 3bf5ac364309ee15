// Framebuffer → PNG, for --screenshot and `gui screenshot FILE`.
#include <GL/gl.h>

#include <vector>

#include "gui/app/app.h"

// The implementation lives here and nowhere else; static, so it cannot clash
// with the copy in Debian's libstb.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

namespace passlab::gui {

bool GuiApp::writeScreenshot(const std::string& path, std::string* error) {
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  const int w = viewport[2], h = viewport[3];
  if (w <= 0 || h <= 0) {
    if (error) *error = "no framebuffer to read";
    return false;
  }
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows run bottom-up; PNG's top-down. The window is opaque, so the
  // alpha channel carries nothing: force it to 255 rather than store blending leftovers.
  std::vector<unsigned char> flipped(pixels.size());
  const size_t stride = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y) {
    const unsigned char* src = pixels.data() + static_cast<size_t>(h - 1 - y) * stride;
    unsigned char* dst = flipped.data() + static_cast<size_t>(y) * stride;
    for (size_t x = 0; x < stride; x += 4) {
      dst[x] = src[x];
      dst[x + 1] = src[x + 1];
      dst[x + 2] = src[x + 2];
      dst[x + 3] = 255;
    }
  }
  if (!stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(stride))) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace passlab::gui
