// libadwaita 1.2 (Debian 12's), for the Swift `Adwaita` layer: the platform's style sheet and style
// manager, and the widgets it has that GTK 4.8 lacks. Only the app uses it; the navigation toolkit stays
// plain GTK, so an app without libadwaita can use it.
#ifndef POSTCARD_CADWAITA_SHIM_H
#define POSTCARD_CADWAITA_SHIM_H
#include <adwaita.h>

// An avatar that screen readers read as an image named `text` (libadwaita 1.2 gives AdwAvatar no
// accessible role or name; the role can only be set as the widget is made, through g_object_new).
static inline GtkWidget *navadw_avatar_new_image(int size, const char *text) {
    GtkWidget *avatar = GTK_WIDGET(g_object_new(ADW_TYPE_AVATAR, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG,
                                                "size", size, "text", text, "show-initials", TRUE, NULL));
    gtk_accessible_update_property(GTK_ACCESSIBLE(avatar), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    return avatar;
}
// A new AdwAboutWindow announced as a dialog (as a window it would read as a plain frame).
static inline GtkWidget *navadw_about_window_new_dialog(void) {
    return GTK_WIDGET(g_object_new(ADW_TYPE_ABOUT_WINDOW, "accessible-role", GTK_ACCESSIBLE_ROLE_DIALOG, NULL));
}
#endif
