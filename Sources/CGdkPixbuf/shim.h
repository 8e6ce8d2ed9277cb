#pragma once
#include <gdk-pixbuf/gdk-pixbuf.h>

// gdk-pixbuf's animation iterator still takes a GTimeVal, which GLib deprecated (it has no other form). These two
// wrappers take the time as seconds and microseconds, so Swift code never names the deprecated type and users who
// build the package see no warning.
static inline GdkPixbufAnimationIter *waymark_pixbuf_animation_get_iter(GdkPixbufAnimation *animation, glong seconds,
                                                                        glong microseconds) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GTimeVal time = {seconds, microseconds};
    GdkPixbufAnimationIter *iterator = gdk_pixbuf_animation_get_iter(animation, &time);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return iterator;
}

static inline gboolean waymark_pixbuf_animation_iter_advance(GdkPixbufAnimationIter *iterator, glong seconds,
                                                             glong microseconds) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GTimeVal time = {seconds, microseconds};
    gboolean changed = gdk_pixbuf_animation_iter_advance(iterator, &time);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return changed;
}
