/* Baseline for `make bench-navigation`: the widget work of Postcard's push and pop, in C, measured the way
 * `postcard-measure --measure-navigation` measures the app's.
 *
 * A window with a GtkHeaderBar (a Back button and a title) over a GtkStack sliding in 200 ms, as
 * Postcard's main window. Its first page has the widgets of My Profile, and each push builds a page with
 * the widgets of a friend's profile: a GtkScrolledWindow with a GtkListView of 7 rows — the header row
 * (AdwClamp, AdwAvatar, name, subtitle, a pill button, on My Profile the friends' GtkFlowBox of buttons
 * and Add Friend, a heading; built with the page, as the app's page builds it) and 6 feed rows (built as
 * the list binds them) (AdwClamp, a GtkOverlay with a GtkPicture showing a photo decoded beforehand, as
 * the app's decoding thread hands one over, and three labels). A friend's button's `clicked` handler
 * adds the friend's page to the stack, slides to it, updates the bar (title, Back, the window title, and
 * the pages' bar items: My Profile's Quick Snap, Messages and menu out, the friend's Copy Link and Remove
 * Friend in), hides My Profile from screen readers and frees the page popped before, as the app's push
 * does. The Back button slides back to My Profile, shows it to screen readers again and moves the bar
 * items back.
 *
 * Times the main thread's work in each `clicked` emission (g_get_monotonic_time around it), 5 unmeasured
 * pushes and pops, then 50 of each, 250 ms apart; prints `push-call-ms` and `pop-call-ms` (medians) and
 * `push-call-max-ms`, `pop-call-max-ms`, and quits. Usage: push-stack PHOTO. Links libadwaita (the app's
 * style sheet and its AdwClamp and AdwAvatar). */
#include <adwaita.h>
#include <stdio.h>
#include <stdlib.h>

#define WARM_UPS 5
#define MEASURED 50

static GtkWidget *window, *stack, *root, *back, *title, *friend_button;
static GtkWidget *popped = NULL;  /* the page popped last: freed by the next push */
/* The bar items of My Profile (start: Quick Snap, Messages; end: the primary menu) and of a friend's
 * profile (end: Copy Link, Remove Friend), kept while out of the bar, moved in and out as the app's
 * navigation stack moves a page's items. */
static GtkWidget *root_start[2], *root_end[1], *friend_end[2];
static GtkWidget *bar;

static void pack_items(GtkWidget **start, int starts, GtkWidget **end, int ends) {
    for (int i = 0; i < starts; i++) gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), start[i]);
    for (int i = 0; i < ends; i++) gtk_header_bar_pack_end(GTK_HEADER_BAR(bar), end[i]);
}

static void unpack_items(GtkWidget **items, int count) {
    for (int i = 0; i < count; i++) gtk_header_bar_remove(GTK_HEADER_BAR(bar), items[i]);
}

static GtkWidget *icon_button(const char *icon, const char *tooltip) {
    GtkWidget *button = gtk_button_new_from_icon_name(icon);
    gtk_widget_set_tooltip_text(button, tooltip);
    return g_object_ref_sink(button);
}
static GdkTexture *photo;
static double pushes[MEASURED], pops[MEASURED];
static int round_index = 0;

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
    GtkWidget *clamp = adw_clamp_new();
    gtk_list_item_set_child(item, clamp);
}

/* A profile's header row: avatar, name, subtitle, the post button, then (on My Profile) the friends
 * section — a heading, a GtkFlowBox of one button per friend (the first is the one clicked) and Add
 * Friend — then the posts' heading. */
static GtkWidget *header_row(gboolean own) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18), *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    GtkWidget *names = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    const char *person = own ? "Sam Rivera" : "Ada Lovelace";
    GtkWidget *avatar = adw_avatar_new(64, person, TRUE);
    GtkWidget *name = gtk_label_new(person), *subtitle = gtk_label_new("6 posts");
    GtkWidget *post = gtk_button_new_with_label(own ? "New Post" : "Post to Their Profile");
    GtkWidget *heading = gtk_label_new(own ? "My Posts" : "Posts");
    GtkWidget *empty = gtk_label_new("No posts yet.");
    gtk_widget_add_css_class(name, "title-2");
    gtk_widget_add_css_class(subtitle, "dim-label");
    gtk_widget_add_css_class(post, "suggested-action");
    gtk_widget_add_css_class(post, "pill");
    gtk_widget_add_css_class(heading, "heading");
    gtk_widget_add_css_class(empty, "dim-label");
    gtk_widget_set_visible(empty, FALSE);
    gtk_box_append(GTK_BOX(names), name);
    gtk_box_append(GTK_BOX(names), subtitle);
    gtk_box_append(GTK_BOX(names), post);
    gtk_box_append(GTK_BOX(top), avatar);
    gtk_box_append(GTK_BOX(top), names);
    gtk_box_append(GTK_BOX(box), top);
    if (own) {
        const char *const friends[] = {"Ada Lovelace", "Grace Hopper", "Alan Turing", NULL};
        GtkWidget *section = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), *friends_heading = gtk_label_new("Friends");
        GtkWidget *flow = gtk_flow_box_new(), *add = gtk_button_new_with_label("Add Friend…");
        gtk_widget_add_css_class(friends_heading, "heading");
        gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(flow), 8);
        gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(flow), GTK_SELECTION_NONE);
        for (int i = 0; friends[i]; i++) {
            GtkWidget *button = gtk_button_new_with_label(friends[i]);
            if (i == 0) friend_button = button;
            gtk_flow_box_append(GTK_FLOW_BOX(flow), button);
        }
        gtk_box_append(GTK_BOX(section), friends_heading);
        gtk_box_append(GTK_BOX(section), flow);
        gtk_box_append(GTK_BOX(section), add);
        gtk_box_append(GTK_BOX(box), section);
    }
    gtk_box_append(GTK_BOX(box), heading);
    gtk_box_append(GTK_BOX(box), empty);
    return box;
}

static GtkWidget *feed_row(guint position) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), *overlay = gtk_overlay_new();
    GtkWidget *picture = gtk_picture_new_for_paintable(GDK_PAINTABLE(photo));
    GtkWidget *error = gtk_label_new(""), *comment = gtk_label_new("Photo"), *caption = gtk_label_new("1 Dec 2026");
    gtk_widget_add_css_class(box, "feed-item");
    gtk_widget_add_css_class(overlay, "feed-photo");
    gtk_widget_add_css_class(error, "error");
    gtk_widget_add_css_class(caption, "dim-label");
    gtk_widget_add_css_class(caption, "caption");
    gtk_widget_set_visible(error, FALSE);
    gtk_overlay_set_child(GTK_OVERLAY(overlay), gtk_box_new(GTK_ORIENTATION_VERTICAL, 0));
    gtk_overlay_add_overlay(GTK_OVERLAY(overlay), picture);
    gtk_box_append(GTK_BOX(box), overlay);
    gtk_box_append(GTK_BOX(box), error);
    gtk_box_append(GTK_BOX(box), comment);
    gtk_box_append(GTK_BOX(box), caption);
    return box;
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer header) {
    guint position = gtk_list_item_get_position(item);
    GtkWidget *child = position == 0 ? header : feed_row(position);
    if (gtk_widget_get_parent(child)) gtk_widget_unparent(child);
    adw_clamp_set_child(ADW_CLAMP(gtk_list_item_get_child(item)), child);
}

static GtkWidget *profile_page(gboolean own) {
    const char *const rows[] = {"header", "1", "2", "3", "4", "5", "6", NULL};
    GtkStringList *model = gtk_string_list_new(rows);
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    /* The header is built with the page, as the app's page builds it; feed rows as the list binds them. */
    GtkWidget *header = header_row(own);
    g_object_ref_sink(header);
    g_signal_connect_data(factory, "bind", G_CALLBACK(bind_row), header, (GClosureNotify)g_object_unref, 0);
    GtkWidget *list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(model))), factory);
    gtk_widget_add_css_class(list, "feed");
    GtkWidget *scrolled = gtk_scrolled_window_new(), *page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
    gtk_widget_set_vexpand(scrolled, TRUE);
    gtk_box_append(GTK_BOX(page), scrolled);
    return page;
}

static void push(GtkButton *button, gpointer data) {
    if (popped) {
        gtk_stack_remove(GTK_STACK(stack), popped);
        popped = NULL;
    }
    GtkWidget *page = profile_page(FALSE);
    gtk_stack_add_named(GTK_STACK(stack), page, "ada");
    gtk_stack_set_transition_type(GTK_STACK(stack), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT);
    gtk_stack_set_visible_child(GTK_STACK(stack), page);
    /* The page covered is not there for a screen reader (GTK 4.8 exposes a stack's other children). */
    gtk_accessible_update_state(GTK_ACCESSIBLE(root), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
    unpack_items(root_start, 2);
    unpack_items(root_end, 1);
    pack_items(NULL, 0, friend_end, 2);
    gtk_label_set_text(GTK_LABEL(title), "Ada Lovelace");
    gtk_widget_set_visible(back, TRUE);
    gtk_window_set_title(GTK_WINDOW(window), "Ada Lovelace – Postcard");
}

static void pop(GtkButton *button, gpointer data) {
    popped = gtk_stack_get_visible_child(GTK_STACK(stack));
    gtk_stack_set_transition_type(GTK_STACK(stack), GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT);
    gtk_stack_set_visible_child(GTK_STACK(stack), root);
    gtk_accessible_update_state(GTK_ACCESSIBLE(root), GTK_ACCESSIBLE_STATE_HIDDEN, FALSE, -1);
    unpack_items(friend_end, 2);
    pack_items(root_start, 2, root_end, 1);
    gtk_label_set_text(GTK_LABEL(title), "My Profile");
    gtk_widget_set_visible(back, FALSE);
    gtk_window_set_title(GTK_WINDOW(window), "Postcard");
}

static double timed_click(GtkWidget *button) {
    gint64 start = g_get_monotonic_time();
    g_signal_emit_by_name(button, "clicked");
    return (g_get_monotonic_time() - start) / 1000.0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *name, double *samples) {
    qsort(samples, MEASURED, sizeof(double), compare);
    printf("%s-call-ms %.3f\n%s-call-max-ms %.3f\n", name, (samples[MEASURED / 2 - 1] + samples[MEASURED / 2]) / 2,
           name, samples[MEASURED - 1]);
}

static gboolean step(gpointer data) {
    /* Even steps push, odd steps pop, 250 ms apart (the slide is 200 ms). */
    int index = round_index / 2;
    if (round_index % 2 == 0) {
        double time = timed_click(friend_button);
        if (index >= WARM_UPS) pushes[index - WARM_UPS] = time;
    } else {
        double time = timed_click(back);
        if (index >= WARM_UPS) pops[index - WARM_UPS] = time;
    }
    round_index++;
    if (round_index == 2 * (WARM_UPS + MEASURED)) {
        report("push", pushes);
        report("pop", pops);
        fflush(stdout);
        exit(0);
    }
    return G_SOURCE_CONTINUE;
}

static gboolean start(gpointer data) {
    g_timeout_add(250, step, NULL);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: push-stack PHOTO\n");
        return 2;
    }
    gtk_init();
    adw_init();
    GError *error = NULL;
    photo = gdk_texture_new_from_filename(argv[1], &error);
    if (!photo) {
        fprintf(stderr, "push-stack: %s\n", error->message);
        return 1;
    }
    window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 720, 680);
    bar = gtk_header_bar_new();
    title = gtk_label_new("My Profile");
    gtk_widget_add_css_class(title, "title");
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(bar), title);
    back = gtk_button_new_from_icon_name("go-previous-symbolic");
    gtk_widget_set_visible(back, FALSE);
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), back);
    root_start[0] = icon_button("camera-photo-symbolic", "Quick Snap");
    root_start[1] = icon_button("mail-unread-symbolic", "Messages");
    root_end[0] = g_object_ref_sink(gtk_menu_button_new());
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(root_end[0]), "open-menu-symbolic");
    gtk_widget_set_tooltip_text(root_end[0], "Main Menu");
    friend_end[0] = icon_button("edit-copy-symbolic", "Copy Link");
    friend_end[1] = icon_button("user-trash-symbolic", "Remove Friend");
    pack_items(root_start, 2, root_end, 1);
    gtk_window_set_titlebar(GTK_WINDOW(window), bar);
    stack = gtk_stack_new();
    gtk_stack_set_transition_duration(GTK_STACK(stack), 200);
    root = profile_page(TRUE);  /* My Profile, with the friend's button in its header row */
    gtk_stack_add_named(GTK_STACK(stack), root, "root");
    gtk_window_set_child(GTK_WINDOW(window), stack);
    g_signal_connect(friend_button, "clicked", G_CALLBACK(push), NULL);
    g_signal_connect(back, "clicked", G_CALLBACK(pop), NULL);
    gtk_window_present(GTK_WINDOW(window));
    g_timeout_add(2000, start, NULL);  /* shown and settled */
    while (TRUE) g_main_context_iteration(NULL, TRUE);
    return 0;
}
