"""vision layer (see docs/vision.md): frames in, card proposals out.

Entry points: ``recognizer.Recognizer().read(frame)`` for one frame, ``live.LiveReader`` for a
stream (sources, voting, seat zones, auto-accept), ``calibration.calibrate`` to adapt to a
user's deck (``adapt``), ``barcode`` for QR card labels, ``cli`` for ``dealer-assist vision ...``.
The only layer that imports cv2 or pyzbar; it may import cards, numpy, cv2, pyzbar (and segno).
"""
