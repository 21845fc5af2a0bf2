import CGLib
import CGtk
import Dispatch
import Gtk
import GtkTesting
import NavigationGtk
import XCTest

/// The toolkit's bindings where threads, lifetimes and GIO meet: a signal or a finalization on another
/// thread reaches its handler on the main thread (no trap), lists handed over by GLib are freed, a second
/// `choose()` fails cleanly, a cancelled folder scan stops GIO's work, an idle callback removed before
/// it ran is released, and a window wrapper dropped on another thread does its GTK work on the main one.
/// `@unchecked Sendable` as every GTK test case: XCTest runs its tests one at a time on the main thread.
final class ToolkitSoundnessTests: ToolkitTestCase, @unchecked Sendable {
    /// A raw pointer handed to another thread in a test: sound because that thread only calls GLib's
    /// thread-safe functions on it (g_object_unref, g_cancellable_cancel) while the main thread waits.
    private struct Handed: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { body(); done.signal() }
        done.wait()
    }

    func testASignalEmittedOnAnotherThreadReachesItsHandlerOnTheMainThread() {
        onMain {
            // GCancellable emits `cancelled` on whatever thread cancels it: GIO's and GStreamer's workers do.
            let cancellable = Object(UnsafeMutableRawPointer(g_cancellable_new()!), transfer: .full)
            var heardOnMain: Bool?, emitter: UnsafeMutableRawPointer?
            cancellable.connect("cancelled") { arguments in
                heardOnMain = navgtk_is_main_thread() != 0
                emitter = arguments.object(at: 0)
            }
            let handed = Handed(pointer: cancellable.unsafeGObjectPointer)
            onAnotherThread { g_cancellable_cancel(handed.pointer.assumingMemoryBound(to: GCancellable.self)) }
            spin(until: { heardOnMain != nil }, "the handler")
            XCTAssertEqual(heardOnMain, true, "the handler ran on the main thread")
            XCTAssertEqual(emitter, cancellable.unsafeGObjectPointer, "with the emission's arguments (copied)")
        }
    }

    func testAnObjectFinalizedOnAnotherThreadIsReportedOnTheMainThread() {
        onMain {
            let raw = UnsafeMutableRawPointer(g_cancellable_new()!)
            var finalizedOnMain: Bool?
            do {
                let object = Object(raw, transfer: .none)  // the wrapper's own reference; ours is the last
                object.whenFinalized { finalizedOnMain = navgtk_is_main_thread() != 0 }
            }
            let handed = Handed(pointer: raw)
            onAnotherThread { g_object_unref(handed.pointer) }
            spin(until: { finalizedOnMain != nil }, "the finalize handler")
            XCTAssertEqual(finalizedOnMain, true)
        }
    }

    func testAListHandedOverByGLibIsFreedWithEveryElement() {
        onMain {
            var finalized = 0, visited = 0
            var list: UnsafeMutablePointer<GList>?
            for _ in 0..<100 {
                let object = Object(UnsafeMutableRawPointer(g_cancellable_new()!), transfer: .full)
                object.whenFinalized { finalized += 1 }
                g_object_ref(object.gobject)
                list = g_list_append(list, object.unsafeGObjectPointer)  // as gst_device_monitor_get_devices: transfer full
            }
            consumeObjectList(list) { _ in visited += 1 }
            XCTAssertEqual(visited, 100)
            spin(until: { finalized == 100 }, "every element freed: \(finalized) of 100")
        }
    }

    func testASecondChooseFailsCleanlyAndTheFirstStillWaits() {
        onMain {
            let window = Gtk.Window()
            show(window)
            let chooser = FileChooser(title: "Open", acceptLabel: "_Open", parent: window.pointer())
            var first: String?? = .none, second: String?? = .none
            Task { first = .some(await chooser.choose()) }
            spin(until: { self.isFileChooserShown }, "the chooser showing")
            g_test_expect_message("NavigationGtk", G_LOG_LEVEL_CRITICAL, "FileChooser.choose(): the chooser is already showing*")
            Task { second = .some(await chooser.choose()) }
            spin(until: { second != nil }, "the second call")
            g_test_assert_expected_messages_internal("NavigationGtk", #filePath, #line, #function)
            XCTAssertEqual(second, .some(nil), "the second call returns nil at once")
            XCTAssertNil(first, "the first is still waiting for the user")
            chooser.cancel()
            spin(until: { first != nil }, "the first call")
            XCTAssertEqual(first, .some(nil))
        }
    }

    func testACancelledFolderScanStopsGIOsWork() {
        onMain {
            var outcome: String?
            let task = Task { @MainActor in
                do {
                    let reader = try await DirectoryReader.open(uri: "file://" + bundledPhotos)
                    outcome = "listed \(try await reader.next(100).count)"
                } catch is CancellationError {
                    outcome = "cancelled"
                } catch {
                    outcome = "\(error)"
                }
            }
            task.cancel()  // before it starts: GIO is asked to stop at once
            spin(until: { outcome != nil }, "the scan")
            XCTAssertEqual(outcome, "cancelled", "GIO's work stopped with the task")

            var listed: String?
            Task { @MainActor in
                let reader = try? await DirectoryReader.open(uri: "file://" + bundledPhotos)
                listed = "\((try? await reader?.next(100))??.count ?? -1)"
            }
            spin(until: { listed != nil }, "an uncancelled scan")
            XCTAssertNotEqual(listed, "-1", "without cancelling, the folder is listed")
        }
    }

    func testAnIdleCallbackRemovedBeforeItRanIsReleased() {
        onMain {
            final class Captured {}
            weak var weakCaptured: Captured?
            var ran = false
            let id: UInt32
            do {
                let captured = Captured()
                weakCaptured = captured
                id = MainLoopBridge.afterLayout { _ = captured; ran = true }
            }
            XCTAssertNotNil(weakCaptured)
            g_source_remove(id)
            XCTAssertNil(weakCaptured, "GLib's destroy notify released the closure")
            settle()
            XCTAssertFalse(ran)
        }
    }

    func testAWindowDroppedOnAnotherThreadDoesItsGTKWorkOnTheMainThread() {
        onMain {
            let parent = Gtk.Window()
            var child: Gtk.Window? = Gtk.Window()
            child!.makeModal(over: parent.pointer())
            let gtkChild = child!.pointer(as: GtkWindow.self)
            g_object_ref(gtkChild)
            defer { g_object_unref(gtkChild) }
            XCTAssertNotNil(gtk_window_get_transient_for(gtkChild))
            // Sound: the worker thread only drops the reference while the main thread waits for it.
            final class Holder: @unchecked Sendable { var window: Gtk.Window?; init(_ w: Gtk.Window?) { window = w } }
            let holder = Holder(child)
            child = nil
            onAnotherThread { holder.window = nil }  // the last reference goes on another thread
            XCTAssertNotNil(gtk_window_get_transient_for(gtkChild), "nothing touched GTK on that thread")
            spin(until: { gtk_window_get_transient_for(gtkChild) == nil }, "the window's deinit, on the main thread")
            _ = parent
        }
    }

    /// A GObject has one Swift wrapper, found again from the object (GLib qdata): a button a page made
    /// comes back as that `Button`, state kept on a window's wrapper is there whoever finds the window,
    /// and a second wrapper made by mistake is a critical, not a silent second owner.
    func testEachGObjectHasOneWrapperFoundFromTheObject() {
        onMain {
            let button = Button(label: "Post")
            let found = Widget.widget(wrapping: button.unsafeGObjectPointer)
            XCTAssertTrue(found === button, "the same wrapper")
            XCTAssertTrue(found is Button, "of its own class")
            XCTAssertTrue(Object.wrapper(of: button.unsafeGObjectPointer) === button)

            let window = Gtk.Window()
            window.modalSheets = 2
            let again = Widget.widget(wrapping: window.unsafeGObjectPointer) as? Gtk.Window
            XCTAssertEqual(again?.modalSheets, 2, "per-object state lives on the one wrapper")
            XCTAssertTrue(window.hasModalChild)

            // A widget made in C has none until it is wrapped; then that wrapper is found.
            let made = UnsafeMutableRawPointer(gtk_label_new("Made in C")!)
            g_object_ref_sink(made)
            XCTAssertNil(Object.wrapper(of: made))
            var wrapped: Widget? = Widget.widget(wrapping: made)
            XCTAssertTrue(Widget.widget(wrapping: made) === wrapped)
            expectCritical("*second Swift wrapper*") {
                _ = Widget(unsafeGtkWidget: made, takingOwnership: false)
            }
            wrapped = nil
            spin(until: { Object.wrapper(of: made) == nil }, "the wrapper gone, and with it its record on the object")
            g_object_unref(made)
            window.destroy()
        }
    }

    /// Dropping the last Swift reference to a widget on another thread unreferences it on the main
    /// thread (the wrappers' isolated deinit): GTK finalizes it there.
    func testAWidgetReleasedOnAnotherThreadIsFinalizedOnTheMainThread() {
        onMain {
            var finalizedOnMain: Bool?
            final class Holder: @unchecked Sendable { var widget: Widget?; init(_ widget: Widget?) { self.widget = widget } }
            let holder = Holder(Label("Released elsewhere"))
            holder.widget!.whenFinalized { finalizedOnMain = navgtk_is_main_thread() != 0 }
            onAnotherThread { holder.widget = nil }  // the last Swift reference, and with it the GObject's
            XCTAssertNil(finalizedOnMain, "not finalized on that thread")
            spin(until: { finalizedOnMain != nil }, "the finalization")
            XCTAssertEqual(finalizedOnMain, true, "finalized on the main thread")
        }
    }

    /// A wrapper whose last reference went on another thread is never handed out while its deinitializer
    /// waits for the main actor: looked up from the object meanwhile, there is none (it was handed out, and
    /// using it revived a dying object); once it has run, a new wrapper can be made and is found.
    func testAWrapperWhoseDeinitIsPendingIsNotFoundFromItsObject() {
        onMain {
            // Unchecked: the other thread only sets `widget` to nil while the main thread waits for it.
            final class Holder: @unchecked Sendable { var widget: Widget?; init(_ widget: Widget?) { self.widget = widget } }
            let holder = Holder(Label("Dropped elsewhere"))
            let object = UnsafeMutableRawPointer(holder.widget!.widget)
            g_object_ref(object)  // the GObject outlives its wrapper
            defer { g_object_unref(object) }
            XCTAssertTrue(Object.wrapper(of: object) === holder.widget, "found while it lives")
            var released = false
            holder.widget!.whenFinalized { released = true }  // not before the test's own reference goes
            onAnotherThread { holder.widget = nil }  // its isolated deinit now waits for the main actor
            XCTAssertNil(Object.wrapper(of: object), "no wrapper handed out while its deinitializer is pending")
            let again = Widget.widget(wrapping: object)  // a new one, though the old deinitializer has not run
            MainLoopBridge.drain()  // the old one's deinitializer runs
            XCTAssertTrue(Object.wrapper(of: object) === again, "the new wrapper stays the object's")
            XCTAssertFalse(released)
        }
    }

    /// A window's destruction is heard from the window itself, at once, whoever destroys it: GTK closing
    /// it (the window manager's close) as well as destroy().
    func testAWindowClosedByGTKIsDestroyedAtOnceThoughItsWrapperLives() {
        onMain {
            let window = Gtk.Window()
            var destroyed = 0
            window.onDestroy { destroyed += 1 }
            show(window)
            window.close()  // GTK's own path: close-request, then gtk_window_destroy
            XCTAssertEqual(destroyed, 1, "heard at once, though this wrapper still holds the window")
            XCTAssertTrue(window.isDestroyed)
            window.destroy()
            XCTAssertEqual(destroyed, 1, "once")
        }
    }
}
